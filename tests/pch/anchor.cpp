// The one source of the targets that own the suites' precompiled Qt headers
// (tests/CMakeLists.txt, "Precompiled headers"). The suites reuse their
// headers; this program itself is never run.
int main()
{
    return 0;
}
