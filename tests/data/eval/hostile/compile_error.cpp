// Hostile: does not compile.
int main()
{
    return undefined_symbol + ;
}
