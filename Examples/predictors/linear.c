/*
 * A touch predictor for latsim in C, speaking the predictor protocol
 * (version 1, JSON Lines on stdin/stdout; Docs/Prediction.md).
 *
 * It extrapolates the velocity of the last two samples, as latsim's own
 * linearFirst does, with the same arithmetic: latsim scores it exactly as
 * linearFirst. `--overshoot K` aims K times as far (1.3: 30% too far).
 * latsim writes its lines with a fixed key order and no spaces, so sscanf
 * reads them.
 *
 * Build (no fused multiply-add, so that the sums round as latsim's do):
 *   cc -O2 -ffp-contract=off -o linear Examples/predictors/linear.c
 *   latsim predict --predictor-command ./linear
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
    double overshoot = argc > 2 && strcmp(argv[1], "--overshoot") == 0 ? atof(argv[2]) : 1.0;
    char line[4096];
    long long t[2], id, ts, horizon, frame;
    double x[2], y[2], sx, sy;
    int n = 0; /* samples held: the newest two */
    while (fgets(line, sizeof line, stdin)) {
        if (strncmp(line, "{\"type\":\"hello\"", 15) == 0) {
            printf("{\"type\":\"hello\",\"protocol\":\"latsim-predictor\",\"version\":1,\"name\":\"example-linear\"}\n");
        } else if (strncmp(line, "{\"type\":\"begin\"}", 16) == 0) {
            n = 0; /* a stroke begins: forget it all */
            continue;
        } else if (sscanf(line, "{\"type\":\"sample\",\"t\":%lld,\"x\":%lf,\"y\":%lf}", &ts, &sx, &sy) == 3) {
            if (n > 0 && ts == t[n - 1]) n--;         /* the same instant again: it replaces the newest */
            else if (n > 0 && ts < t[n - 1]) n = 0;
            else if (n == 2) { t[0] = t[1]; x[0] = x[1]; y[0] = y[1]; n = 1; }
            t[n] = ts; x[n] = sx; y[n] = sy; n++;
            continue;
        } else if (sscanf(line, "{\"type\":\"predict\",\"id\":%lld,\"horizon\":%lld,\"frameInterval\":%lld}",
                          &id, &horizon, &frame) == 3) {
            if (n < 2) {
                printf("{\"type\":\"prediction\",\"id\":%lld,\"x\":null,\"y\":null}\n", id);
            } else {
                double k = (double)horizon / 1e9 / ((double)(t[1] - t[0]) / 1e9) * overshoot;
                printf("{\"type\":\"prediction\",\"id\":%lld,\"x\":%.17g,\"y\":%.17g}\n", id,
                       x[1] + (x[1] - x[0]) * k, y[1] + (y[1] - y[0]) * k);
            }
        } else {
            fprintf(stderr, "example-linear: unknown message %s", line);
            return 1;
        }
        fflush(stdout);
    }
    return 0;
}
