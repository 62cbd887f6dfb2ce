// A C++ candidate for c3_autocorrelation: the step function [1, 2, 1].
#include <cstdio>

int main()
{
    std::printf("{\"heights\": [1, 2, 1]}\n");
    return 0;
}
