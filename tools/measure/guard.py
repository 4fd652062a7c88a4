"""The --guard MEAN,MAX of the validation scripts that CI runs beside `sgdsim validate` (tools/holdout_nodes.py,
tools/measure/replay_concurrent.py): the mean and the max |error| in percent beyond which they exit 1."""

import sys


def parse_guard(text, prog, example="20,70"):
    """'MEAN,MAX' in percent -> [mean, max]; '' -> None; anything else exits with `prog`'s error line."""
    if not text:
        return None
    try:
        guard = [float(x) for x in text.split(",")]
    except ValueError:
        guard = []
    if len(guard) != 2 or min(guard) <= 0:
        sys.exit("%s: error: --guard %s: expected MEAN,MAX in percent, e.g. %s" % (prog, text, example))
    return guard


def check_guard(guard, mean, worst, prog):
    """Exits with `prog`'s message where `mean` or `worst` (percent) exceeds `guard` (None: no guard)."""
    if guard and (mean > guard[0] or worst > guard[1]):
        sys.exit("%s: beyond the guard %g%% / %g%%" % (prog, guard[0], guard[1]))
