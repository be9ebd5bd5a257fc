#!/usr/bin/env python3
"""A touch predictor for latsim in Python, speaking the predictor protocol
(version 1, JSON Lines on stdin/stdout; Docs/Prediction.md).

It extrapolates the velocity of the last two samples, as latsim's own
linearFirst does, with the same arithmetic: latsim scores it exactly as
linearFirst. `--overshoot K` aims K times as far (1.3: 30% too far).

    latsim predict --predictor-command 'python3 Examples/predictors/linear.py'
"""
import json
import sys


def main():
    overshoot = float(sys.argv[2]) if sys.argv[1:2] == ["--overshoot"] else 1.0
    last = []  # the newest two samples, (t ns, x, y)
    for line in sys.stdin:
        message = json.loads(line)
        kind = message["type"]
        if kind == "hello":
            answer = {"type": "hello", "protocol": "latsim-predictor", "version": 1, "name": "example-linear"}
        elif kind == "begin":  # a stroke begins: forget it all
            last = []
            continue
        elif kind == "sample":
            sample = (message["t"], message["x"], message["y"])
            if last and sample[0] == last[-1][0]:
                last[-1] = sample  # the same instant again: it replaces the newest
            else:
                last = [last[-1], sample] if last and sample[0] > last[-1][0] else [sample]
            continue
        elif kind == "predict":
            answer = {"type": "prediction", "id": message["id"], "x": None, "y": None}
            if len(last) == 2:
                (t0, x0, y0), (t1, x1, y1) = last
                k = message["horizon"] / 1e9 / ((t1 - t0) / 1e9) * overshoot
                answer["x"] = x1 + (x1 - x0) * k
                answer["y"] = y1 + (y1 - y0) * k
        else:
            print("example-linear: unknown message " + line.strip(), file=sys.stderr)
            return 1
        print(json.dumps(answer), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
