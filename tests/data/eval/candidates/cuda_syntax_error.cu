// A CUDA candidate that does not compile.
extern "C" int layernorm_forward(const float *x, const float *w, const float *b, float *y, int rows, int cols)
{
    return undeclared_kernel<<<1, 1>>>(x);
}
