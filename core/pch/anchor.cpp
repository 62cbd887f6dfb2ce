// The one source of the target that owns the core modules' precompiled Qt
// headers (core/CMakeLists.txt); every module reuses them.
namespace dreamrsi {
int corePchAnchor()
{
    return 0;
}
} // namespace dreamrsi
