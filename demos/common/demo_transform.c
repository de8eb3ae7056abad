#include "demo_transform.h"

/* Not pulled in by cglm.h unless CGLM_FORCE_DEPTH_ZERO_TO_ONE is defined
 * everywhere; the one function is all the demos need. */
#include <cglm/clipspace/persp_rh_zo.h>

void demo_view_projection(float fov_degrees, float aspect, vec3 eye, vec3 center, mat4 out)
{
    mat4 view, proj;
    glm_lookat(eye, center, (vec3){ 0, 1, 0 }, view);
    glm_perspective_rh_zo(glm_rad(fov_degrees), aspect, 0.1f, 100.0f, proj);
    /* Vulkan's framebuffer y runs down where OpenGL's runs up: flipping y
     * here keeps "up" up on screen, and with it the winding: faces that are
     * counter-clockwise seen from outside stay counter-clockwise (front). */
    proj[1][1] *= -1.0f;
    glm_mat4_mul(proj, view, out);
}

void demo_push_make(mat4 view_projection, mat4 model, const vec4 tint, demo_push *out)
{
    glm_mat4_mul(view_projection, model, out->mvp);
    /* Normals transform by the inverse transpose, right even when a model
     * is scaled unevenly. */
    mat3 m, n;
    glm_mat4_pick3(model, m);
    glm_mat3_inv(m, n);
    glm_mat3_transpose(n);
    for (int c = 0; c < 3; c++)
        glm_vec4(n[c], 0.0f, out->normal_matrix[c]);
    glm_vec4_copy((float *)tint, out->tint);
}
