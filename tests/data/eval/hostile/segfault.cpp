// Hostile: dereferences a null pointer.
#include <cstdio>

int main()
{
    volatile int *p = nullptr;
    std::printf("%d\n", *p);
    return 0;
}
