#include <cstdio>
#include <vector>

int saxpy(int n, float a, const float* x, float* y);
int fill_random(float* d, int n);

int main() {
  std::vector<float> x(1024, 1.0f), y(1024, 2.0f);
  int rc = saxpy(1024, 2.0f, x.data(), y.data());
  std::printf("saxpy rc=%d y[0]=%f\n", rc, y[0]);
  return rc;
}
