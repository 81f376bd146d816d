// Heads-up text (see hud.h).
#include "hud.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "font.h"

// The font texture: 16 x 6 cells of 6 x 8 texels (a 5 x 7 glyph and a blank column and row), for
// characters 32..127; cell 127 is solid, for rectangles.
#define CELL_W 6
#define CELL_H 8
#define ATLAS_COLS 16
#define ATLAS_ROWS 6
#define ATLAS_W (CELL_W * ATLAS_COLS)
#define ATLAS_H (CELL_H * ATLAS_ROWS)
#define SOLID_CHAR 127
#define LINE_SPACING 3 // texels between lines

bool hud_init(hud *h, GLuint text_program, char *err, size_t err_size)
{
    memset(h, 0, sizeof *h);
    int bad = font_check();
    if (bad) {
        snprintf(err, err_size, "the built-in font's glyph for character %d is malformed", bad);
        return false;
    }
    uint8_t atlas[ATLAS_W * ATLAS_H];
    memset(atlas, 0, sizeof atlas);
    for (int c = FONT_FIRST; c <= SOLID_CHAR; ++c) {
        int cx = ((c - FONT_FIRST) % ATLAS_COLS) * CELL_W, cy = ((c - FONT_FIRST) / ATLAS_COLS) * CELL_H;
        for (int y = 0; y < CELL_H; ++y)
            for (int x = 0; x < CELL_W; ++x) {
                bool on = c == SOLID_CHAR || font_pixel((char)c, x, y);
                atlas[(cy + y) * ATLAS_W + cx + x] = on ? 255 : 0;
            }
    }
    h->program = text_program;
    glGenTextures(1, &h->font_texture);
    glBindTexture(GL_TEXTURE_2D, h->font_texture);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_R8, ATLAS_W, ATLAS_H, 0, GL_RED, GL_UNSIGNED_BYTE, atlas);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    glGenVertexArrays(1, &h->vao);
    glBindVertexArray(h->vao);
    glGenBuffers(1, &h->vbo);
    glBindBuffer(GL_ARRAY_BUFFER, h->vbo);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, sizeof(text_vertex), (void *)offsetof(text_vertex, pixel));
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 2, GL_FLOAT, GL_FALSE, sizeof(text_vertex), (void *)offsetof(text_vertex, uv));
    glEnableVertexAttribArray(2);
    glVertexAttribPointer(2, 4, GL_UNSIGNED_BYTE, GL_TRUE, sizeof(text_vertex), (void *)offsetof(text_vertex, color));
    glBindVertexArray(0);
    return true;
}

void hud_free(hud *h)
{
    if (h->font_texture)
        glDeleteTextures(1, &h->font_texture);
    if (h->vao)
        glDeleteVertexArrays(1, &h->vao);
    if (h->vbo)
        glDeleteBuffers(1, &h->vbo);
    free(h->vertices);
    memset(h, 0, sizeof *h);
}

void hud_begin(hud *h, int width, int height)
{
    h->count = 0;
    h->width = width;
    h->height = height;
    // 2x from a 900-pixel-wide frame up (readable without squinting), 3x on very large frames
    h->scale = width >= 2400 ? 3 : (width >= 900 ? 2 : 1);
}

float hud_line_height(const hud *h) { return (float)((CELL_H + LINE_SPACING) * h->scale); }

float hud_text_width(const hud *h, const char *text) { return (float)(strlen(text) * CELL_W * h->scale); }

// One textured quad (two triangles) from cell `c` of the atlas.
static void quad(hud *h, float x, float y, float w, float hgt, int c, const uint8_t color[4])
{
    if (h->count + 6 > h->capacity) {
        int n = h->capacity ? 2 * h->capacity : 6 * 1024;
        text_vertex *p = realloc(h->vertices, (size_t)n * sizeof *p);
        if (!p)
            return; // out of memory: that text is not drawn
        h->vertices = p;
        h->capacity = n;
    }
    float u0 = (float)(((c - FONT_FIRST) % ATLAS_COLS) * CELL_W) / ATLAS_W;
    float v0 = (float)(((c - FONT_FIRST) / ATLAS_COLS) * CELL_H) / ATLAS_H;
    float u1 = u0 + (float)CELL_W / ATLAS_W, v1 = v0 + (float)CELL_H / ATLAS_H;
    if (c == SOLID_CHAR) {
        // sample the middle of the solid cell only
        float du = 0.5f / ATLAS_W, dv = 0.5f / ATLAS_H;
        u0 += du, u1 -= du, v0 += dv, v1 -= dv;
    }
    const float corners[6][4] = {{x, y, u0, v0},       {x + w, y, u1, v0},       {x + w, y + hgt, u1, v1},
                                 {x, y, u0, v0},       {x + w, y + hgt, u1, v1}, {x, y + hgt, u0, v1}};
    for (int i = 0; i < 6; ++i) {
        text_vertex *v = &h->vertices[h->count++];
        v->pixel[0] = corners[i][0], v->pixel[1] = corners[i][1];
        v->uv[0] = corners[i][2], v->uv[1] = corners[i][3];
        memcpy(v->color, color, 4);
    }
}

void hud_text(hud *h, float x, float y, const char *text, const uint8_t color[4])
{
    float cw = (float)(CELL_W * h->scale), ch = (float)(CELL_H * h->scale);
    for (const char *p = text; *p; ++p, x += cw) {
        int c = (unsigned char)*p;
        if (c == ' ')
            continue;
        if (c < FONT_FIRST || c > FONT_LAST)
            c = '?';
        quad(h, x, y, cw, ch, c, color);
    }
}

void hud_rect(hud *h, float x, float y, float w, float hgt, const uint8_t color[4])
{
    quad(h, x, y, w, hgt, SOLID_CHAR, color);
}

void hud_end(hud *h)
{
    if (h->count == 0)
        return;
    glUseProgram(h->program);
    glUniform2f(glGetUniformLocation(h->program, "u_screen"), (float)h->width, (float)h->height);
    glUniform1i(glGetUniformLocation(h->program, "u_font"), 0);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, h->font_texture);
    glDisable(GL_DEPTH_TEST);
    glDisable(GL_CULL_FACE);
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    glBindVertexArray(h->vao);
    glBindBuffer(GL_ARRAY_BUFFER, h->vbo);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)((size_t)h->count * sizeof(text_vertex)), h->vertices, GL_STREAM_DRAW);
    glDrawArrays(GL_TRIANGLES, 0, h->count);
    glBindVertexArray(0);
    glDisable(GL_BLEND);
}

// ---- layout -------------------------------------------------------------------------------------

static const uint8_t TEXT[4] = {240, 240, 240, 255};
static const uint8_t DIM[4] = {185, 195, 210, 255};
static const uint8_t ACCENT[4] = {255, 200, 90, 255};
static const uint8_t PANEL[4] = {18, 22, 30, 170};

// Lines in a translucent panel at (x, y); returns the panel's height.
static float panel(hud *h, float x, float y, char lines[][256], const uint8_t *const colors[], int n)
{
    float pad = 4.0f * (float)h->scale, lh = hud_line_height(h), w = 0.0f;
    // cut lines that would run off the frame, with "..."
    size_t fit = (size_t)(((float)h->width - x - 2.0f * pad) / (float)(CELL_W * h->scale));
    for (int i = 0; i < n; ++i)
        if (fit >= 4 && fit < 255 && strlen(lines[i]) > fit)
            memcpy(lines[i] + fit - 3, "...", 4);
    for (int i = 0; i < n; ++i) {
        float lw = hud_text_width(h, lines[i]);
        w = lw > w ? lw : w;
    }
    float ph = (float)n * lh + 2.0f * pad - (float)(LINE_SPACING * h->scale);
    hud_rect(h, x, y, w + 2.0f * pad, ph, PANEL);
    for (int i = 0; i < n; ++i)
        hud_text(h, x + pad, y + pad + (float)i * lh, lines[i], colors[i]);
    return ph;
}

void hud_draw_status(hud *h, const hud_status *s)
{
    char lines[6][256];
    const uint8_t *colors[6];
    int n = 0;
    // the device description already says how many threads the CPU backend runs
    snprintf(lines[n], sizeof lines[n], "%s | %s on %s | solver %s", s->scene, s->info.backend, s->info.device,
             s->info.solver);
    colors[n++] = TEXT;
    // a large scene in software draws below 1 frame/s: keep a decimal there
    snprintf(lines[n], sizeof lines[n], "bodies %d (%d awake) | contacts %d | %.2f ms/step | %.*f fps | x%g%s%s",
             s->bodies, s->awake_bodies, s->contacts, s->step_ms, s->fps < 10.0 ? 1 : 0, s->fps,
             (double)s->time_scale,
             s->paused ? " | PAUSED" : "", s->picking ? " | pulling" : "");
    colors[n++] = TEXT;
    const rb_profile *p = &s->phases;
    snprintf(lines[n], sizeof lines[n], "ms: integrate %.2f  bounds %.2f  broad %.2f  narrow %.2f  batches %.2f",
             (double)p->integrate, (double)p->bounds, (double)p->broad, (double)p->narrow, (double)p->batches);
    colors[n++] = DIM;
    snprintf(lines[n], sizeof lines[n], "    correct %.2f  solve %.2f  sleep %.2f  transfer %.2f", (double)p->correct,
             (double)p->solve, (double)p->sleep, (double)p->transfer);
    colors[n++] = DIM;
    if (s->message && *s->message) {
        snprintf(lines[n], sizeof lines[n], "%s", s->message);
        colors[n++] = ACCENT;
    }
    float margin = 6.0f * (float)h->scale;
    panel(h, margin, margin, lines, colors, n);

    const char *hint = s->show_contacts ? "h: help   contacts shown" : "h: help";
    float lh = hud_line_height(h);
    hud_text(h, margin, (float)h->height - margin - lh, hint, DIM);
}

void hud_draw_help(hud *h)
{
    static const char *const text[] = {
        "rubble-view controls",
        "",
        "left drag        orbit the camera",
        "left drag body   pull it with a spring",
        "right drag       pan (also middle drag, shift + left drag)",
        "wheel            zoom",
        "f                frame the scene",
        "space            pause / run",
        "n                single step (pauses)",
        "r                reset the scene",
        "+ / -            time scale x2 / /2",
        "c                show contacts (points, normals)",
        "s                screenshot to rubble-view-NNN.png",
        "h                this help",
        "esc, q           quit",
    };
    enum { N = sizeof text / sizeof text[0] };
    char lines[N][256];
    const uint8_t *colors[N];
    float w = 0.0f;
    for (int i = 0; i < N; ++i) {
        snprintf(lines[i], sizeof lines[i], "%s", text[i]);
        colors[i] = i == 0 ? ACCENT : TEXT;
        float lw = hud_text_width(h, lines[i]);
        w = lw > w ? lw : w;
    }
    float pad = 4.0f * (float)h->scale;
    float ph = (float)N * hud_line_height(h) + 2.0f * pad;
    panel(h, 0.5f * ((float)h->width - w - 2.0f * pad), 0.5f * ((float)h->height - ph), lines, colors, N);
}
