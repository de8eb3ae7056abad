/* Compares two screenshots of the same frame from two drivers.
 *
 *   compare_images A.png B.png [THRESHOLD] [--max-share PERCENT] [--diff OUT.png]
 *
 * Prints the share of pixels whose largest channel difference exceeds
 * THRESHOLD (default 8 of 255), the largest difference and where it is,
 * and the mean absolute difference per channel. Rasterization rules and
 * float precision differ a little between drivers; a large share is a bug
 * to find. With --max-share the exit status is 1 when the share exceeds
 * PERCENT (2 when the images cannot be read or differ in size). --diff
 * writes where they differ: black where equal, grey rising 16 levels per
 * unit of difference, red above THRESHOLD. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <stb_image.h>
#include <stb_image_write.h>

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s A.png B.png [THRESHOLD] [--max-share PERCENT] [--diff OUT.png]\n", argv[0]);
        return 2;
    }
    int threshold = 8;
    double max_share = -1.0;
    const char *diff_path = NULL;
    for (int i = 3; i < argc; i++) {
        if (strcmp(argv[i], "--max-share") == 0 && i + 1 < argc)
            max_share = atof(argv[++i]);
        else if (strcmp(argv[i], "--diff") == 0 && i + 1 < argc)
            diff_path = argv[++i];
        else
            threshold = atoi(argv[i]);
    }
    int w[2], h[2], n;
    unsigned char *px[2];
    for (int k = 0; k < 2; k++) {
        px[k] = stbi_load(argv[1 + k], &w[k], &h[k], &n, 3);
        if (!px[k]) {
            fprintf(stderr, "compare_images: %s: %s\n", argv[1 + k], stbi_failure_reason());
            return 2;
        }
    }
    if (w[0] != w[1] || h[0] != h[1]) {
        fprintf(stderr, "compare_images: %dx%d against %dx%d\n", w[0], h[0], w[1], h[1]);
        return 2;
    }
    size_t pixels = (size_t)w[0] * h[0], over = 0;
    unsigned char *diff = diff_path ? calloc(pixels, 3) : NULL;
    int largest = 0, lx = 0, ly = 0;
    double sum[3] = { 0, 0, 0 };
    for (size_t i = 0; i < pixels; i++) {
        int worst = 0;
        for (int c = 0; c < 3; c++) {
            int d = abs((int)px[0][3 * i + c] - (int)px[1][3 * i + c]);
            sum[c] += d;
            worst = d > worst ? d : worst;
        }
        over += worst > threshold;
        if (diff) {
            unsigned char grey = (unsigned char)(worst * 16 > 255 ? 255 : worst * 16);
            diff[3 * i] = worst > threshold ? 255 : grey;
            diff[3 * i + 1] = diff[3 * i + 2] = worst > threshold ? 0 : grey;
        }
        if (worst > largest) {
            largest = worst;
            lx = (int)(i % (size_t)w[0]);
            ly = (int)(i / (size_t)w[0]);
        }
    }
    double share = 100.0 * (double)over / (double)pixels;
    printf("%dx%d: %zu pixels (%.3f%%) differ by more than %d; largest difference %d at (%d,%d); "
           "mean |difference| R %.3f G %.3f B %.3f\n",
           w[0], h[0], over, share, threshold, largest, lx, ly, sum[0] / pixels, sum[1] / pixels, sum[2] / pixels);
    if (diff && !stbi_write_png(diff_path, w[0], h[0], 3, diff, w[0] * 3))
        fprintf(stderr, "compare_images: could not write %s\n", diff_path);
    free(diff);
    stbi_image_free(px[0]);
    stbi_image_free(px[1]);
    return max_share >= 0.0 && share > max_share ? 1 : 0;
}
