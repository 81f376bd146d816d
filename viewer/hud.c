// The heads-up text (see hud.h).
#include "hud.h"

#include <stdio.h>

int hud_status_lines(const hud_status *s, char lines[HUD_MAX_LINES][HUD_LINE_SIZE], hud_tone tones[HUD_MAX_LINES])
{
    int n = 0;
    // the device description already says how many threads the CPU backend runs
    snprintf(lines[n], HUD_LINE_SIZE, "%s | %s on %s | solver %s", s->scene, s->info.backend, s->info.device,
             s->info.solver);
    tones[n++] = HUD_TONE_TEXT;
    // a large scene in software draws below 1 frame/s: keep a decimal there
    char joints[32] = "";
    if (s->joints > 0)
        snprintf(joints, sizeof joints, " | joints %d", s->joints);
    snprintf(lines[n], HUD_LINE_SIZE, "bodies %d (%d awake)%s | contacts %d | %.2f ms/step | %.*f fps | x%g%s%s",
             s->bodies, s->awake_bodies, joints, s->contacts, s->step_ms, s->fps < 10.0 ? 1 : 0, s->fps,
             (double)s->time_scale, s->paused ? " | PAUSED" : "", s->picking ? " | pulling" : "");
    tones[n++] = HUD_TONE_TEXT;
    const rb_profile *p = &s->phases;
    snprintf(lines[n], HUD_LINE_SIZE, "ms: integrate %.2f  bounds %.2f  broad %.2f  narrow %.2f  batches %.2f",
             (double)p->integrate, (double)p->bounds, (double)p->broad, (double)p->narrow, (double)p->batches);
    tones[n++] = HUD_TONE_DIM;
    snprintf(lines[n], HUD_LINE_SIZE, "      correct %.2f  solve %.2f  sleep %.2f  transfer %.2f", (double)p->correct,
             (double)p->solve, (double)p->sleep, (double)p->transfer);
    tones[n++] = HUD_TONE_DIM;
    if (s->message && *s->message) {
        snprintf(lines[n], HUD_LINE_SIZE, "%s", s->message);
        tones[n++] = HUD_TONE_ACCENT;
    }
    return n;
}

const char *hud_hint(const hud_status *s)
{
    return s->show_contacts ? "h: help   F1: panel   contacts shown" : "h: help   F1: panel";
}

const hud_key_help hud_help[] = {
    {"left drag", "orbit the camera"},
    {"left drag on a body", "pull it with a spring"},
    {"right drag", "pan (also middle drag, shift + left drag)"},
    {"wheel", "zoom"},
    {"f", "frame the scene"},
    {"space", "pause / run"},
    {"n", "single step (pauses)"},
    {"r", "reset the scene"},
    {"+ / -", "time scale x2 / /2"},
    {"c", "show contacts (points, normals)"},
    {"j", "show joints (anchors, axes, limits)"},
    {"s", "screenshot to rubble-view-NNN.png"},
    {"F1 or Tab", "side panel: scenes, what is shown, solver settings, timings"},
    {"h", "this help"},
    {"esc, q", "quit"},
};
const int hud_help_count = (int)(sizeof hud_help / sizeof hud_help[0]);
