#pragma once
__device__ inline float scale(float v) { return 2.0f * v; }
