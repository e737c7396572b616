// The histogram's C++ interface: no CUDA in here, so main.cpp builds with any C++ compiler.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

constexpr int kBins = 16;

// Counts bytes into kBins bins on the GPU; on failure returns an empty vector and sets *error.
std::vector<unsigned> gpu_histogram(const std::vector<unsigned char>& data, std::string* error);
