// OpenCL C implementations of lang_extern.gt's extern functions.
float scale(int x, float factor) {
    return (float)x * factor;
}

int clamp_add(int a, int b, int limit) {
    int total = a + b;
    return total > limit ? limit : total;
}
