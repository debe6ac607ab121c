#!/usr/bin/env python3
"""One timed run of one mode of ../shared/tools/peers/warc_speed.py, for benches/e2e.sh.

    peer_run.py WARC_SPEED_PY WARC MODE CAP INFO_JSON OUT_JSONL

Imports warc_speed.py and calls its own `run_mode` (same code, same counting), once, and
adds the process's CPU time (user+sys, from getrusage) around that call, so the one-time
pre-pass and imports are not counted. The pre-pass (uncompressed size and fastwarc census)
runs once and is cached in INFO_JSON; MODE `info` only fills that cache.

Appends warc_speed's result dict plus `cpu_s` and `maxrss_kib` as one JSON line to
OUT_JSONL, and prints `MODE<TAB>wall<TAB>cpu<TAB>maxrss_kib` on stdout, where wall is the
full-file time (extrapolated from docs done when CAP stopped the run, CPU scaled alike).
"""

import importlib.util
import json
import os
import resource
import sys


def main():
    speed_py, warc, mode, cap, info_json, out_jsonl = sys.argv[1:7]
    spec = importlib.util.spec_from_file_location("warc_speed", speed_py)
    ws = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(ws)

    if os.path.exists(info_json):
        with open(info_json) as fh:
            cached = json.load(fh)
    else:
        cached = {"uncompressed_bytes": ws.uncompressed_size(warc), "census": ws.census(warc)}
        with open(info_json, "w") as fh:
            json.dump(cached, fh)
    if mode == "info":
        return 0
    usize, info = cached["uncompressed_bytes"], cached["census"]

    ws._warm_imports([mode])
    before = resource.getrusage(resource.RUSAGE_SELF)
    r = ws.run_mode(mode, warc, float(cap), 1, info, usize)
    after = resource.getrusage(resource.RUSAGE_SELF)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    scale = r["full_file_s"] / r["elapsed_s"] if r["elapsed_s"] > 0 else 1.0
    r["cpu_s"] = round(cpu * scale, 3)
    r["maxrss_kib"] = after.ru_maxrss
    with open(out_jsonl, "a") as fh:
        fh.write(json.dumps(r) + "\n")
    print(f"{mode}\t{r['full_file_s']:.4f}\t{r['cpu_s']:.3f}\t{after.ru_maxrss}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
