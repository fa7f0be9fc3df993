"""Peer for scripts/bench-convert: the same normalisation with pandas."""
import sys

import pandas as pd

frame = pd.read_csv(sys.argv[1], dtype=str, keep_default_na=False)
naive = ~frame["time"].str.contains(r"(Z|[+-]\d\d:\d\d)$")
times = pd.Series(pd.NaT, index=frame.index, dtype="datetime64[ns, UTC]")
times[~naive] = pd.to_datetime(frame.loc[~naive, "time"], utc=True, format="mixed")
times[naive] = pd.to_datetime(frame.loc[naive, "time"], format="mixed").dt.tz_localize("Asia/Shanghai").dt.tz_convert("UTC")
frame["time"] = times
frame.to_json(sys.argv[2], orient="records", lines=True, date_format="iso")
