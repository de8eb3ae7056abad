/* Checks what a demo's screenshot must show.
 *
 *   check_screenshot MODE FILE R,G,B
 *
 * R,G,B is the demo's clear color as stored (sRGB bytes). MODE:
 *   msaa          background at the corners, the cube at the center, and
 *                 antialiased silhouette: many edge pixels blend the
 *                 background with the cube
 *   msaa-aliased  the same picture drawn with 1 sample: (almost) no blended
 *                 edge pixels, which shows the msaa check can fail
 *   depth         background at the corners; where cubes overlap, the
 *                 nearer one's tint
 *   depth-broken  drawn without the depth test: there the farther one's
 *
 * The points below were picked from the demos' pictures at the sizes and
 * frame counts tests/demos/CMakeLists.txt runs, as fractions of the image,
 * each inside its region with a margin of several pixels. */
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <stb_image.h>

typedef struct image {
    int w, h;
    unsigned char *px; /* RGB */
} image;

typedef enum tint { BACKGROUND, RED, GREEN, BLUE, YELLOW, OTHER } tint;
static const char *tint_names[] = { "background", "red", "green", "blue", "yellow", "other" };

static int bg[3];
static int failures;

static const unsigned char *at(const image *im, int x, int y) { return &im->px[((size_t)y * im->w + x) * 3]; }

/* Euclidean distance from the background color. */
static double distance(const unsigned char *p)
{
    double d = 0;
    for (int c = 0; c < 3; c++)
        d += (double)(p[c] - bg[c]) * (p[c] - bg[c]);
    return sqrt(d);
}

static bool is_background(const unsigned char *p)
{
    for (int c = 0; c < 3; c++)
        if (abs(p[c] - bg[c]) > 3)
            return false;
    return true;
}

static tint classify(const unsigned char *p)
{
    int r = p[0], g = p[1], b = p[2];
    if (is_background(p))
        return BACKGROUND;
    if (r > 2 * g && r > 2 * b)
        return RED;
    if (2 * g > 3 * r && 2 * g > 3 * b)
        return GREEN;
    if (2 * b > 3 * r && 2 * b > 3 * g)
        return BLUE;
    if (r > 3 * b && g > 3 * b && 2 * g > r)
        return YELLOW;
    return OTHER;
}

static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    printf("FAIL: ");
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
    failures++;
}

/* Every pixel of the 7x7 block around (fx, fy) must be `want`: a margin
 * against a cube that moved a pixel or two. */
static void expect_tint(const image *im, double fx, double fy, tint want, const char *what)
{
    int cx = (int)(fx * im->w), cy = (int)(fy * im->h);
    for (int y = cy - 3; y <= cy + 3; y++)
        for (int x = cx - 3; x <= cx + 3; x++) {
            const unsigned char *p = at(im, x, y);
            tint got = classify(p);
            if (got != want) {
                fail("%s: pixel (%d,%d) = %d,%d,%d is %s, expected %s", what, x, y, p[0], p[1], p[2],
                     tint_names[got], tint_names[want]);
                return;
            }
        }
    printf("ok: %s: %s at (%d,%d)\n", what, tint_names[want], cx, cy);
}

static void expect_background_corners(const image *im)
{
    const int m = 4;
    expect_tint(im, (double)m / im->w, (double)m / im->h, BACKGROUND, "top-left corner");
    expect_tint(im, 1.0 - (double)(m + 1) / im->w, (double)m / im->h, BACKGROUND, "top-right corner");
    expect_tint(im, (double)m / im->w, 1.0 - (double)(m + 1) / im->h, BACKGROUND, "bottom-left corner");
    expect_tint(im, 1.0 - (double)(m + 1) / im->w, 1.0 - (double)(m + 1) / im->h, BACKGROUND, "bottom-right corner");
}

static void expect_object_at_center(const image *im)
{
    const unsigned char *p = at(im, im->w / 2, im->h / 2);
    if (is_background(p))
        fail("center: background: no cube drawn");
    else
        printf("ok: center: cube (%d,%d,%d)\n", p[0], p[1], p[2]);
}

/* Whether p is a blend of the background and q: on every channel between
 * the two (with 2 levels of rounding slack), and between 15% and 85% of the
 * way from the background to q. */
static bool blend_of(const unsigned char *p, const unsigned char *q)
{
    double num = 0, den = 0;
    for (int c = 0; c < 3; c++) {
        int lo = bg[c] < q[c] ? bg[c] : q[c], hi = bg[c] < q[c] ? q[c] : bg[c];
        if (p[c] < lo - 2 || p[c] > hi + 2)
            return false;
        num += (double)(p[c] - bg[c]) * (q[c] - bg[c]);
        den += (double)(q[c] - bg[c]) * (q[c] - bg[c]);
    }
    double t = num / den;
    return t > 0.15 && t < 0.85;
}

/* A silhouette pixel is drawn (not background) next to a background pixel
 * in one of the four directions, with drawn pixels two and three steps the
 * other way that differ clearly from the background. It is blended when it
 * is a blend of the background and both of those (two, so that one odd
 * texel inside cannot fake a blend): what resolving partly covered samples
 * gives, and what one sample per pixel does not. Returns the blended
 * fraction of the silhouette. */
static double blended_edge_fraction(const image *im, int *silhouette_out)
{
    static const int dirs[4][2] = { { 1, 0 }, { -1, 0 }, { 0, 1 }, { 0, -1 } };
    int silhouette = 0, blended = 0;
    for (int y = 3; y < im->h - 3; y++)
        for (int x = 3; x < im->w - 3; x++) {
            const unsigned char *p = at(im, x, y);
            if (is_background(p))
                continue;
            bool edge = false, mixed = false;
            for (int d = 0; d < 4; d++) {
                int dx = dirs[d][0], dy = dirs[d][1];
                if (!is_background(at(im, x + dx, y + dy)))
                    continue;
                const unsigned char *q2 = at(im, x - 2 * dx, y - 2 * dy), *q3 = at(im, x - 3 * dx, y - 3 * dy);
                if (distance(q2) < 40 || distance(q3) < 40)
                    continue; /* a sliver, or too little contrast to see a blend */
                edge = true;
                mixed = mixed || (blend_of(p, q2) && blend_of(p, q3));
            }
            silhouette += edge;
            blended += mixed;
        }
    *silhouette_out = silhouette;
    return silhouette ? (double)blended / silhouette : 0.0;
}

static void check_msaa(const image *im, bool antialiased)
{
    expect_background_corners(im);
    expect_object_at_center(im);
    int silhouette = 0;
    double f = blended_edge_fraction(im, &silhouette);
    printf("silhouette pixels: %d, blended: %.1f%%\n", silhouette, 100.0 * f);
    if (silhouette < 100)
        fail("silhouette: only %d pixels, want 100 or more", silhouette);
    else if (antialiased && f < 0.25)
        fail("msaa: %.1f%% of the silhouette pixels blended, want 25%% or more (is MSAA on?)", 100.0 * f);
    else if (!antialiased && f > 0.03)
        fail("aliased: %.1f%% of the silhouette pixels blended, want 3%% or less with 1 sample", 100.0 * f);
}

static void check_depth(const image *im, bool depth_test)
{
    expect_background_corners(im);
    /* Drawn nearest first: red, the yellow bar, green (pierced by the bar),
     * blue. Without the depth test the later, farther one wins. */
    expect_tint(im, 0.425, 0.625, depth_test ? RED : GREEN, "red in front of green");
    expect_tint(im, 0.575, 0.375, depth_test ? GREEN : BLUE, "green in front of blue");
    expect_tint(im, 0.71, 0.475, depth_test ? YELLOW : BLUE, "bar out of green, in front of blue");
}

int main(int argc, char **argv)
{
    if (argc != 4 || sscanf(argv[3], "%d,%d,%d", &bg[0], &bg[1], &bg[2]) != 3) {
        fprintf(stderr, "usage: %s msaa|msaa-aliased|depth|depth-broken FILE.png R,G,B\n", argv[0]);
        return 2;
    }
    const char *mode = argv[1];
    image im = { 0 };
    int comp = 0;
    im.px = stbi_load(argv[2], &im.w, &im.h, &comp, 3);
    if (!im.px) {
        fprintf(stderr, "%s: cannot load '%s': %s\n", argv[0], argv[2], stbi_failure_reason());
        return 1;
    }
    printf("%s: %dx%d, mode %s\n", argv[2], im.w, im.h, mode);
    if (im.w < 64 || im.h < 64) {
        fail("%dx%d is too small to check", im.w, im.h);
    } else if (strcmp(mode, "msaa") == 0 || strcmp(mode, "msaa-aliased") == 0) {
        check_msaa(&im, strcmp(mode, "msaa") == 0);
    } else if (strcmp(mode, "depth") == 0 || strcmp(mode, "depth-broken") == 0) {
        check_depth(&im, strcmp(mode, "depth") == 0);
    } else {
        fprintf(stderr, "%s: unknown mode '%s'\n", argv[0], mode);
        stbi_image_free(im.px);
        return 2;
    }
    stbi_image_free(im.px);
    printf("%s\n", failures ? "FAILED" : "PASSED");
    return failures ? 1 : 0;
}
