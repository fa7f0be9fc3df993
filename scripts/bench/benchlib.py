"""What the benchmark scripts share: the generated order file, timing with GNU time."""
import datetime as dt
import os
import random
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATA = os.path.join(ROOT, "bench-data")
TIMELINE = os.path.join(ROOT, ".build/release/timeline")

def generate(rows):
    path = os.path.join(DATA, f"orders-{rows}.csv")
    if os.path.exists(path):
        return path
    os.makedirs(DATA, exist_ok=True)
    random.seed(1)
    base = dt.datetime(2024, 1, 1, tzinfo=dt.timezone.utc)
    east8 = dt.timezone(dt.timedelta(hours=8))
    cities = ["Shenzhen, Guangdong", "Beijing", "Shanghai, Pudong", "Hangzhou, Zhejiang", "Chengdu"]
    statuses = ["placed", "paid", "shipped", "in transit", "delivered", "signed"]
    with open(path, "w") as f:
        f.write("order_id,event,status,time,amount,currency,location,note\n")
        for i in range(rows):
            t = base + dt.timedelta(seconds=i * 17, milliseconds=random.randrange(1000))
            r = random.random()
            if r < 0.7:
                ts = t.astimezone(east8).strftime("%Y-%m-%dT%H:%M:%S+08:00")
            elif r < 0.9:
                ts = t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{t.microsecond // 1000:03d}Z"
            else:
                ts = t.astimezone(east8).strftime("%Y-%m-%d %H:%M:%S")
            st = statuses[i % 6]
            amount = f"{random.randrange(1, 100000) / 100:.2f}" if st == "paid" else ""
            f.write(f"SO-{i // 6:06d},{st.title()} event,{st},{ts},{amount},{'CNY' if amount else ''},"
                    f"\"{random.choice(cities)}\",note {i}\n")
    return path


def head(path, rows):
    out = os.path.join(DATA, f"head-{rows}-{os.path.basename(path)}")
    if not os.path.exists(out):
        with open(path) as f, open(out, "w") as o:
            for i, line in enumerate(f):
                if i > rows:
                    break
                o.write(line)
    return out


def measure(cmd, stdout_path=os.devnull):
    """Wall seconds and peak RSS (KiB) of one run, from GNU time."""
    with open(stdout_path, "wb") as out:
        proc = subprocess.run(["/usr/bin/time", "-f", "TIME %e %M"] + cmd, stdout=out, stderr=subprocess.PIPE, text=True)
    m = re.search(r"TIME ([\d.]+) (\d+)", proc.stderr)
    if proc.returncode != 0 or not m:
        sys.exit(f"failed: {' '.join(cmd)}\n{proc.stderr[-2000:]}")
    return float(m.group(1)), int(m.group(2))


def best(cmd, runs=3):
    results = [measure(cmd) for _ in range(runs)]
    return min(r[0] for r in results), max(r[1] for r in results)


def instructions(cmd):
    """Instructions of one run under callgrind."""
    err = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"] + cmd,
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True).stderr
    return int(re.search(r"refs:\s+([\d,]+)", err).group(1).replace(",", ""))


def machine():
    """`2 cores, Intel(R) Xeon(R) …` — what a recorded figure was measured on."""
    model = "unknown CPU"
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{os.cpu_count()} cores, {model}"


def record(title, body):
    """Writes `body` as the section `## title` of docs/performance.md (replacing the one there,
    else appending it), with the date and the machine of the run: the benchmark scripts'
    `--record` keeps the figures where the documentation reads them."""
    path = os.path.join(ROOT, "docs", "performance.md")
    text = open(path, encoding="utf-8").read()
    stamp = f"One run on {dt.date.today().isoformat()} ({machine()}), written by the script.\n\n"
    section = f"## {title}\n\n{stamp}{body.rstrip()}\n"
    head = f"## {title}\n"
    if head in text:
        start = text.index(head)
        following = text.find("\n## ", start + len(head))
        end = len(text) if following < 0 else following + 1
        text = text[:start] + section + ("\n" if following >= 0 else "") + text[end:]
    else:
        text = text.rstrip() + "\n\n" + section
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
