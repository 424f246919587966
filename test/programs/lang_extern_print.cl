// OpenCL C implementation of lang_extern_print.gt's extern function: it prints.
int report(int v, int chosen) {
    if (v == chosen) {
        printf("extern %d\n", v);
    }
    return v + 1;
}
