// GLSL sources and program building (see shaders.h).
#include "shaders.h"

#include <stdio.h>
#include <string.h>

#define VERSION "#version 330 core\n"

// Light shared by every lit program. u_light: unit vector towards the light (world). The ambient term
// blends a cool sky colour (normals up) with a warm ground bounce (normals down); fog fades distant
// surfaces into the horizon colour of the sky.
static const char lighting[] =
    "uniform vec3 u_light;\n"
    "uniform vec3 u_eye;\n"
    "uniform float u_fog_distance;\n"
    "const vec3 HORIZON = vec3(0.80, 0.84, 0.89);\n"
    "vec3 shade(vec3 base, vec3 n) {\n"
    "    float diffuse = max(dot(n, u_light), 0.0);\n"
    "    vec3 ambient = mix(vec3(0.30, 0.27, 0.24), vec3(0.44, 0.48, 0.56), 0.5 + 0.5 * n.y);\n"
    "    return base * (ambient + vec3(1.0, 0.96, 0.90) * (0.70 * diffuse));\n"
    "}\n"
    "vec3 fog(vec3 c, vec3 world) {\n"
    "    float d = length(world - u_eye) / u_fog_distance;\n"
    "    return mix(c, HORIZON, 1.0 - exp(-d * d));\n"
    "}\n";

static const char quat_rotate[] =
    "vec3 qrot(vec4 q, vec3 v) {\n"
    "    vec3 t = 2.0 * cross(q.xyz, v);\n"
    "    return v + q.w * t + cross(q.xyz, t);\n"
    "}\n";

// ---- mesh ----

static const char mesh_vs[] =
    "layout(location = 0) in vec3 a_position;\n"
    "layout(location = 1) in vec3 a_normal;\n"
    "layout(location = 2) in vec3 i_position;\n"
    "layout(location = 3) in vec4 i_rotation;\n"
    "layout(location = 4) in vec3 i_scale;\n"
    "layout(location = 5) in vec4 i_color;\n"
    "uniform mat4 u_view_proj;\n"
    "out vec3 v_world;\n"
    "out vec3 v_normal;\n"
    "out vec3 v_local;\n"
    "flat out vec3 v_scale;\n"
    "flat out vec3 v_color;\n"
    "void main() {\n"
    "    vec3 world = i_position + qrot(i_rotation, a_position * i_scale);\n"
    "    v_world = world;\n"
    // inverse-transpose of a scale is the inverse scale; guard the flat axis of a zero-length cylinder
    "    v_normal = qrot(i_rotation, a_normal / max(i_scale, vec3(1e-6)));\n"
    "    v_local = a_position;\n"
    "    v_scale = i_scale;\n"
    "    v_color = i_color.rgb;\n"
    "    gl_Position = u_view_proj * vec4(world, 1.0);\n"
    "}\n";

static const char mesh_fs[] =
    "in vec3 v_world;\n"
    "in vec3 v_normal;\n"
    "in vec3 v_local;\n"
    "flat in vec3 v_scale;\n"
    "flat in vec3 v_color;\n"
    "uniform bool u_edges;\n"
    "out vec4 o_color;\n"
    "void main() {\n"
    "    vec3 n = normalize(v_normal);\n"
    "    vec3 c = shade(v_color, n);\n"
    "    if (u_edges) {\n"
    // distance (m) to the nearest edge of the face: of the three distances to the cube's faces, the
    // smallest is ~0 (the face itself), the middle one is to the nearest edge
    "        vec3 d = (1.0 - abs(v_local)) * v_scale;\n"
    "        float e = max(min(d.x, d.y), min(max(d.x, d.y), d.z));\n"
    "        float w = max(0.012 * min(v_scale.x, min(v_scale.y, v_scale.z)), 1.2 * fwidth(e));\n"
    "        c *= mix(0.55, 1.0, smoothstep(0.0, w, e));\n"
    "    }\n"
    "    o_color = vec4(fog(c, v_world), 1.0);\n"
    "}\n";

// ---- plane ----

static const char plane_vs[] =
    "layout(location = 0) in vec3 a_position;\n"
    "layout(location = 2) in vec3 i_position;\n"
    "layout(location = 3) in vec4 i_rotation;\n"
    "layout(location = 4) in vec3 i_scale;\n"
    "layout(location = 5) in vec4 i_color;\n"
    "uniform mat4 u_view_proj;\n"
    "uniform vec3 u_focus;\n"
    "out vec3 v_world;\n"
    "out vec2 v_grid;\n"
    "flat out vec3 v_normal;\n"
    "flat out vec3 v_color;\n"
    "void main() {\n"
    "    vec3 tu = qrot(i_rotation, vec3(1.0, 0.0, 0.0));\n"
    "    vec3 tv = qrot(i_rotation, vec3(0.0, 0.0, 1.0));\n"
    // centre the quad under the camera's focus, snapped to the 10 m grid so the lines stay put
    "    vec2 focus = vec2(dot(u_focus - i_position, tu), dot(u_focus - i_position, tv));\n"
    "    vec2 g = floor(focus / 10.0) * 10.0 + a_position.xz * i_scale.x;\n"
    "    vec3 world = i_position + tu * g.x + tv * g.y;\n"
    "    v_world = world;\n"
    "    v_grid = g;\n"
    "    v_normal = qrot(i_rotation, vec3(0.0, 1.0, 0.0));\n"
    "    v_color = i_color.rgb;\n"
    "    gl_Position = u_view_proj * vec4(world, 1.0);\n"
    "}\n";

static const char plane_fs[] =
    "in vec3 v_world;\n"
    "in vec2 v_grid;\n"
    "flat in vec3 v_normal;\n"
    "flat in vec3 v_color;\n"
    "out vec4 o_color;\n"
    // 1 where a grid line of `spacing` m passes through the pixel, antialiased over one pixel
    "float grid(vec2 g, float spacing) {\n"
    "    vec2 c = g / spacing;\n"
    "    vec2 w = fwidth(c);\n"
    "    vec2 a = abs(fract(c - 0.5) - 0.5) / max(w, vec2(1e-6));\n"
    "    return 1.0 - min(min(a.x, a.y), 1.0);\n"
    "}\n"
    "void main() {\n"
    "    vec3 n = gl_FrontFacing ? v_normal : -v_normal;\n"
    "    float pixel = max(fwidth(v_grid.x), fwidth(v_grid.y));\n"
    // fine lines fade out where they would be closer than a few pixels
    "    float fine = grid(v_grid, 1.0) * (1.0 - smoothstep(0.08, 0.25, pixel));\n"
    "    float coarse = grid(v_grid, 10.0) * (1.0 - smoothstep(0.8, 2.5, pixel));\n"
    "    vec3 c = v_color * (1.0 - 0.16 * fine - 0.28 * coarse);\n"
    "    o_color = vec4(fog(shade(c, n), v_world), 1.0);\n"
    "}\n";

// ---- sphere impostor ----

static const char sphere_vs[] =
    "layout(location = 0) in vec2 a_corner;\n"
    "layout(location = 1) in vec3 i_center;\n"
    "layout(location = 2) in float i_radius;\n"
    "layout(location = 3) in vec4 i_color;\n"
    "uniform mat4 u_view;\n"
    "uniform mat4 u_proj;\n"
    "out vec3 v_view_pos;\n"
    "flat out vec3 v_center;\n"
    "flat out float v_radius;\n"
    "flat out vec3 v_color;\n"
    "void main() {\n"
    "    vec3 c = (u_view * vec4(i_center, 1.0)).xyz;\n"
    "    float d = length(c), r = i_radius;\n"
    "    v_center = c;\n"
    "    v_radius = r;\n"
    "    v_color = i_color.rgb;\n"
    "    if (d <= r * 1.0001) {\n"
    "        v_view_pos = c;\n"
    "        gl_Position = vec4(2.0, 2.0, 2.0, 1.0);\n" // eye inside the sphere: nothing to draw
    "        return;\n"
    "    }\n"
    // a quad through the centre, facing the eye, just large enough for the silhouette: the cone from
    // the eye tangent to the sphere cuts that plane in a circle of radius r d / sqrt(d² − r²)
    "    vec3 dir = c / d;\n"
    "    vec3 up0 = abs(dir.y) < 0.99 ? vec3(0.0, 1.0, 0.0) : vec3(1.0, 0.0, 0.0);\n"
    "    vec3 right = normalize(cross(dir, up0));\n"
    "    vec3 up = cross(right, dir);\n"
    "    float s = r * d / sqrt(d * d - r * r);\n"
    "    vec3 p = c + (a_corner.x * right + a_corner.y * up) * s;\n"
    "    v_view_pos = p;\n"
    "    gl_Position = u_proj * vec4(p, 1.0);\n"
    "}\n";

static const char sphere_fs[] =
    "in vec3 v_view_pos;\n"
    "flat in vec3 v_center;\n"
    "flat in float v_radius;\n"
    "flat in vec3 v_color;\n"
    "uniform mat4 u_view;\n"
    "uniform mat4 u_proj;\n"
    "out vec4 o_color;\n"
    "void main() {\n"
    // the eye ray through this pixel against the sphere, in view space (eye at the origin); the
    // closest-approach form stays exact for small, distant spheres
    "    vec3 dir = normalize(v_view_pos);\n"
    "    float b = dot(dir, v_center);\n"
    "    vec3 f = v_center - b * dir;\n"
    "    float disc = v_radius * v_radius - dot(f, f);\n"
    "    if (disc < 0.0) discard;\n"
    "    vec3 hit = (b - sqrt(disc)) * dir;\n"
    "    vec4 clip = u_proj * vec4(hit, 1.0);\n"
    "    float z = clip.z / clip.w;\n"
    "    if (z < -1.0) discard;\n" // in front of the near plane
    "    gl_FragDepth = 0.5 * z + 0.5;\n"
    "    mat3 to_world = transpose(mat3(u_view));\n"
    "    vec3 n = to_world * ((hit - v_center) / v_radius);\n"
    "    vec3 world = u_eye + to_world * hit;\n"
    "    o_color = vec4(fog(shade(v_color, n), world), 1.0);\n"
    "}\n";

// ---- lines and points ----

static const char line_vs[] =
    "layout(location = 0) in vec3 a_position;\n"
    "layout(location = 1) in vec4 a_color;\n"
    "uniform mat4 u_view_proj;\n"
    "uniform float u_point_size;\n"
    "uniform float u_point_world;\n"
    "uniform float u_point_min;\n"
    "uniform float u_pixels_per_m;\n"
    "uniform vec3 u_eye;\n"
    "uniform float u_pull;\n"
    "out vec4 v_color;\n"
    "void main() {\n"
    "    v_color = a_color;\n"
    // moved a little towards the eye: a contact on a visible surface passes the depth test against it
    "    vec3 p = mix(a_position, u_eye, u_pull);\n"
    "    gl_Position = u_view_proj * vec4(p, 1.0);\n"
    // u_point_world > 0: that many metres across, between u_point_min and u_point_size pixels (w is the depth)
    "    gl_PointSize = u_point_world > 0.0\n"
    "        ? clamp(u_point_world * u_pixels_per_m / max(gl_Position.w, 1e-6), u_point_min, u_point_size)\n"
    "        : u_point_size;\n"
    "}\n";

static const char line_fs[] =
    "in vec4 v_color;\n"
    "uniform float u_brightness;\n"
    "uniform bool u_round;\n"
    "out vec4 o_color;\n"
    "void main() {\n"
    "    if (u_round && length(gl_PointCoord - vec2(0.5)) > 0.5)\n"
    "        discard;\n"
    "    o_color = vec4(v_color.rgb * u_brightness, v_color.a);\n"
    "}\n";

// ---- sky ----

static const char sky_vs[] =
    "out float v_height;\n"
    "void main() {\n"
    "    vec2 p = vec2(gl_VertexID == 1 ? 3.0 : -1.0, gl_VertexID == 2 ? 3.0 : -1.0);\n"
    "    v_height = 0.5 * p.y + 0.5;\n"
    "    gl_Position = vec4(p, 1.0, 1.0);\n"
    "}\n";

static const char sky_fs[] =
    "in float v_height;\n"
    "out vec4 o_color;\n"
    "void main() {\n"
    "    vec3 horizon = vec3(0.80, 0.84, 0.89), zenith = vec3(0.40, 0.55, 0.74);\n"
    "    o_color = vec4(mix(horizon, zenith, smoothstep(0.2, 1.0, v_height)), 1.0);\n"
    "}\n";

typedef struct program_source {
    const char *name;
    const char *vs[4];
    const char *fs[4];
} program_source;

static const program_source sources[PROGRAM_COUNT] = {
    [PROGRAM_MESH] = {"mesh", {VERSION, quat_rotate, mesh_vs}, {VERSION, lighting, mesh_fs}},
    [PROGRAM_PLANE] = {"plane", {VERSION, quat_rotate, plane_vs}, {VERSION, lighting, plane_fs}},
    [PROGRAM_SPHERE] = {"sphere", {VERSION, sphere_vs}, {VERSION, lighting, sphere_fs}},
    [PROGRAM_LINE] = {"line", {VERSION, line_vs}, {VERSION, line_fs}},
    [PROGRAM_SKY] = {"sky", {VERSION, sky_vs}, {VERSION, sky_fs}},
};

static GLuint compile(GLenum type, const char *const *parts, const char *name, char *err, size_t err_size)
{
    GLsizei n = 0;
    while (n < 4 && parts[n])
        ++n;
    GLuint s = glCreateShader(type);
    glShaderSource(s, n, parts, NULL);
    glCompileShader(s);
    GLint ok = GL_FALSE;
    glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
    if (ok)
        return s;
    char log[2048] = "";
    glGetShaderInfoLog(s, sizeof log, NULL, log);
    snprintf(err, err_size, "the %s %s shader does not compile: %s", name,
             type == GL_VERTEX_SHADER ? "vertex" : "fragment", log);
    glDeleteShader(s);
    return 0;
}

bool shaders_build(GLuint programs[PROGRAM_COUNT], char *err, size_t err_size)
{
    memset(programs, 0, PROGRAM_COUNT * sizeof programs[0]);
    for (int i = 0; i < PROGRAM_COUNT; ++i) {
        const program_source *src = &sources[i];
        GLuint vs = compile(GL_VERTEX_SHADER, src->vs, src->name, err, err_size);
        GLuint fs = vs ? compile(GL_FRAGMENT_SHADER, src->fs, src->name, err, err_size) : 0;
        if (!vs || !fs) {
            if (vs)
                glDeleteShader(vs);
            shaders_free(programs);
            return false;
        }
        GLuint p = glCreateProgram();
        glAttachShader(p, vs);
        glAttachShader(p, fs);
        glLinkProgram(p);
        glDeleteShader(vs);
        glDeleteShader(fs);
        GLint ok = GL_FALSE;
        glGetProgramiv(p, GL_LINK_STATUS, &ok);
        if (!ok) {
            char log[2048] = "";
            glGetProgramInfoLog(p, sizeof log, NULL, log);
            snprintf(err, err_size, "the %s program does not link: %s", src->name, log);
            glDeleteProgram(p);
            shaders_free(programs);
            return false;
        }
        programs[i] = p;
    }
    return true;
}

void shaders_free(GLuint programs[PROGRAM_COUNT])
{
    for (int i = 0; i < PROGRAM_COUNT; ++i) {
        if (programs[i])
            glDeleteProgram(programs[i]);
        programs[i] = 0;
    }
}
