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
 *   deferred      sky at the top corners, ground at the bottom ones, the
 *                 near ground lit by many colored lights, white-hot bulbs,
 *                 the gold and the blue sphere where they stand
 *   deferred-one-light  the same scene under one light: the lit-ground
 *                 checks must fail there, which shows they can
 *   postfx        the brick cube, the sun above it, the neon floor, and
 *                 bottom corners darkened by the vignette (R,G,B unused)
 *   postfx-no-vignette  the same run without the vignette pass: the
 *                 vignette check must fail there, which shows it can
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

/* postfx: the mean brightness (0..255) of the box [x0,x1) x [y0,y1), as
 * fractions of the image, and how many of its pixels pass `keep`. */
static double box_mean(const image *im, double x0, double y0, double x1, double y1,
                       bool (*keep)(const unsigned char *p), double *kept)
{
    double sum = 0;
    int n = 0, k = 0;
    for (int y = (int)(y0 * im->h); y < (int)(y1 * im->h); y++)
        for (int x = (int)(x0 * im->w); x < (int)(x1 * im->w); x++, n++) {
            const unsigned char *p = at(im, x, y);
            sum += (p[0] + p[1] + p[2]) / 3.0;
            k += keep && keep(p);
        }
    if (kept)
        *kept = n ? (double)k / n : 0;
    return n ? sum / n : 0;
}

static bool is_brick(const unsigned char *p) { return p[0] >= 60 && 2 * p[0] >= 3 * p[1] && 2 * p[0] >= 3 * p[2]; }
static bool is_sun(const unsigned char *p) { return p[0] >= 200 && p[1] >= 140 && p[2] + 60 <= p[1]; }
static bool is_neon(const unsigned char *p) { return p[2] >= 150 && p[2] >= p[1] + 20; }

/* The postfx demo with all its passes: the brick cube in the middle, the
 * sun above it, neon grid lines on the floor, and the vignette: the bottom
 * corners much darker than the middle of the bottom edge (the floor itself
 * is about as bright there). `vignette` false: a run without the vignette
 * pass, where that check must fail, which shows that it can. */
static void check_postfx(const image *im, bool vignette)
{
    double kept;
    box_mean(im, 0.44, 0.52, 0.56, 0.68, is_brick, &kept);
    if (kept < 0.3)
        fail("cube: %.0f%% brick-colored pixels around the center, want 30%% or more", 100 * kept);
    else
        printf("ok: cube: %.0f%% brick-colored pixels around the center\n", 100 * kept);
    box_mean(im, 0.45, 0.14, 0.55, 0.24, is_sun, &kept);
    if (kept < 0.6)
        fail("sun: %.0f%% sun-colored pixels above the cube, want 60%% or more", 100 * kept);
    else
        printf("ok: sun: %.0f%% sun-colored pixels above the cube\n", 100 * kept);
    box_mean(im, 0.0, 0.8, 1.0, 1.0, is_neon, &kept);
    if (kept < 0.03)
        fail("grid: %.1f%% neon pixels on the near floor, want 3%% or more", 100 * kept);
    else
        printf("ok: grid: %.1f%% neon pixels on the near floor\n", 100 * kept);
    /* The bottom corners against the middle of the bottom edge: the floor
     * is about as bright across (the top edge is not: the sun's haze). */
    const double b = 0.12;
    const double corners[2][2] = { { 0, 1 - b }, { 1 - b, 1 - b } };
    int dark = 0;
    for (int i = 0; i < 2; i++) {
        double corner = box_mean(im, corners[i][0], corners[i][1], corners[i][0] + b, corners[i][1] + b, NULL, NULL);
        double middle = box_mean(im, 0.5 - b / 2, corners[i][1], 0.5 + b / 2, corners[i][1] + b, NULL, NULL);
        bool darker = corner < 0.6 * middle;
        dark += darker;
        printf("%s: bottom corner %d brightness %.1f, bottom middle %.1f\n", darker ? "dark" : "not dark", i,
               corner, middle);
    }
    if (vignette && dark < 2)
        fail("vignette: %d of 2 bottom corners below 60%% of the bottom middle, want both", dark);
    else if (!vignette && dark > 0)
        fail("no vignette: %d bottom corners below 60%% of the bottom middle, want none", dark);
}

/* deferred: the mean brightness (0..255) of a band of rows, and how many
 * of its pixels are lit by a colored light: one channel clearly above the
 * other two (by 40 levels and by a quarter). */
static double band_mean(const image *im, double y0, double y1, int dominant[3])
{
    double sum = 0;
    int n = 0;
    dominant[0] = dominant[1] = dominant[2] = 0;
    for (int y = (int)(y0 * im->h); y < (int)(y1 * im->h); y++)
        for (int x = 0; x < im->w; x++, n++) {
            const unsigned char *p = at(im, x, y);
            sum += (p[0] + p[1] + p[2]) / 3.0;
            for (int c = 0; c < 3; c++) {
                int a = p[(c + 1) % 3], b = p[(c + 2) % 3], top = a > b ? a : b;
                if (p[c] >= top + 40 && 4 * p[c] >= 5 * top)
                    dominant[c]++;
            }
        }
    return n ? sum / n : 0;
}

/* The mean color of the 7x7 block around (fx, fy) must have channel hi
 * above channel lo by `margin` levels. */
static void expect_above(const image *im, double fx, double fy, int hi, int lo, int margin, const char *what)
{
    int cx = (int)(fx * im->w), cy = (int)(fy * im->h), sum[3] = { 0, 0, 0 };
    for (int y = cy - 3; y <= cy + 3; y++)
        for (int x = cx - 3; x <= cx + 3; x++)
            for (int k = 0; k < 3; k++)
                sum[k] += at(im, x, y)[k];
    int m[3] = { sum[0] / 49, sum[1] / 49, sum[2] / 49 };
    if (m[hi] < m[lo] + margin)
        fail("%s: mean color around (%d,%d) is %d,%d,%d", what, cx, cy, m[0], m[1], m[2]);
    else
        printf("ok: %s: %d,%d,%d around (%d,%d)\n", what, m[0], m[1], m[2], cx, cy);
}

/* The deferred demo at its default view: sky at the top corners, the ground
 * at the bottom ones; the near ground lit brightly by many colored lights
 * (pools of red, green and blue light); small white-hot bulbs; the gold
 * sphere in the middle and the blue one in front of it. `lit` false: the
 * same scene under one light (--lights 1), where the lit-ground checks
 * must fail, which shows that they measure the lights. */
static void check_deferred(const image *im, bool lit)
{
    const int m = 4;
    expect_tint(im, (double)m / im->w, (double)m / im->h, BACKGROUND, "sky, top-left corner");
    expect_tint(im, 1.0 - (double)(m + 1) / im->w, (double)m / im->h, BACKGROUND, "sky, top-right corner");
    const unsigned char *bl = at(im, m, im->h - 1 - m), *br = at(im, im->w - 1 - m, im->h - 1 - m);
    if (is_background(bl) || is_background(br))
        fail("ground: a bottom corner is background: no ground drawn");
    int dominant[3];
    double sky = band_mean(im, 0.0, 0.08, dominant);
    double ground = band_mean(im, 0.75, 1.0, dominant);
    int region = (im->h - (int)(0.75 * im->h)) * im->w;
    printf("sky %.1f, near ground %.1f; colored ground pixels: red %d, green %d, blue %d of %d\n", sky, ground,
           dominant[0], dominant[1], dominant[2], region);
    int white = 0;
    for (int y = 0; y < im->h; y++)
        for (int x = 0; x < im->w; x++) {
            const unsigned char *p = at(im, x, y);
            white += p[0] >= 235 && p[1] >= 235 && p[2] >= 235;
        }
    printf("white-hot pixels: %d\n", white);
    expect_above(im, 0.56, 0.36, 0, 2, 25, "gold sphere: red over blue");
    expect_above(im, 0.56, 0.36, 1, 2, 15, "gold sphere: green over blue");
    /* Green light passing it may lift its green: only red is compared. */
    expect_above(im, 0.5, 0.69, 2, 0, 40, "blue sphere: blue over red");
    bool bright = ground >= sky + 30;
    /* 8% of the near ground in colored light, two hues at least 2% each:
     * the palette's blues tint the warm stone less than reds and greens. */
    int hues = (dominant[0] * 50 >= region) + (dominant[1] * 50 >= region) + (dominant[2] * 50 >= region);
    bool colored = (dominant[0] + dominant[1] + dominant[2]) * 25 >= 2 * region && hues >= 2;
    bool hot = white * 2000 >= im->w * im->h; /* 0.05% of the picture: bulbs' cores and highlights */
    if (lit) {
        if (!bright)
            fail("lit ground: near ground %.1f, want at least the sky's %.1f + 30", ground, sky);
        if (!colored)
            fail("colored lights: want 8%% of the near ground in colored light, 2%% each in two of red, green, blue");
        if (!hot)
            fail("bulbs: %d white-hot pixels, want at least %d", white, im->w * im->h / 2000);
    } else if (bright || colored) {
        fail("one light: the ground is lit as if by many (bright %d, colored %d)", bright, colored);
    }
}

int main(int argc, char **argv)
{
    if (argc != 4 || sscanf(argv[3], "%d,%d,%d", &bg[0], &bg[1], &bg[2]) != 3) {
        fprintf(stderr, "usage: %s msaa|msaa-aliased|depth|depth-broken|deferred|deferred-one-light|postfx|postfx-no-vignette FILE.png R,G,B\n", argv[0]);
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
    } else if (strcmp(mode, "deferred") == 0 || strcmp(mode, "deferred-one-light") == 0) {
        check_deferred(&im, strcmp(mode, "deferred") == 0);
    } else if (strcmp(mode, "postfx") == 0 || strcmp(mode, "postfx-no-vignette") == 0) {
        check_postfx(&im, strcmp(mode, "postfx") == 0);
    } else {
        fprintf(stderr, "%s: unknown mode '%s'\n", argv[0], mode);
        stbi_image_free(im.px);
        return 2;
    }
    stbi_image_free(im.px);
    printf("%s\n", failures ? "FAILED" : "PASSED");
    return failures ? 1 : 0;
}
