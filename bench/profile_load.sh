#!/usr/bin/env bash
# Issue 34's breakdown: where the server's CPU goes under bench/load.py, per process.
#
#   bench/profile_load.sh OUTDIR [load.py arguments...]
#
# Runs bench/load.py (its arguments after OUTDIR; the database must be one of the run's own),
# and while the clients play records each daphne process and each Celery worker with py-spy
# (pip install py-spy; samples holding the GIL only, which are CPU) for PROFILE_SECONDS (20) from PROFILE_AFTER (40) seconds after the
# start, counts the PostgreSQL statements of those seconds (pg_stat_statements, when it is in
# shared_preload_libraries: else it says how to put it there and counts none; the extension is
# made in the database "postgres") and the Redis
# commands (INFO commandstats after CONFIG RESETSTAT: the whole Redis server's), and the moves
# the run's database committed meanwhile. OUTDIR gets load.json, the stacks (daphne*.txt,
# worker*.txt), breakdown.txt (bench/spy_breakdown.py of each), statements.txt, redis.txt.
set -euo pipefail
out=$1; shift
mkdir -p "$out"
here=$(cd "$(dirname "$0")/.." && pwd)
py="$here/.venv/bin/python"
spy="$here/.venv/bin/py-spy"
after=${PROFILE_AFTER:-40}
seconds=${PROFILE_SECONDS:-20}
db=$(printf '%s\n' "$@" | grep -m1 '^postgres://' | sed 's#.*/##')
[ -n "$db" ] || { echo "give --database-url postgres://.../NAME" >&2; exit 2; }
redis_url=$(printf '%s\n' "$@" | grep -m1 '^redis://' || echo redis://127.0.0.1:6379/0)
redis_host=$(echo "$redis_url" | sed -E 's#redis://([^:/]+):?([0-9]*).*#\1#')
redis_port=$(echo "$redis_url" | sed -E 's#redis://[^:/]+:?([0-9]*).*#\1#'); redis_port=${redis_port:-6379}
psql_() { psql -h 127.0.0.1 -U postgres -XAtq "$@"; }
# Without the library preloaded the extension's views cannot be read: say how, and go on
# without the statements rather than stop after the load has started.
statements=yes
if ! psql_ -d postgres -c "show shared_preload_libraries" | grep -q pg_stat_statements; then
    statements=
    echo "pg_stat_statements is not preloaded: no statements counted. To count them:" >&2
    echo "  psql -h 127.0.0.1 -U postgres -c \"alter system set shared_preload_libraries = 'pg_stat_statements'\"" >&2
    echo "  pg_ctlcluster --skip-systemctl-redirect \$(ls /etc/postgresql) main restart" >&2
else
    psql_ -d postgres -c "create extension if not exists pg_stat_statements"
fi

"$py" "$here/bench/load.py" "$@" > "$out/load.json" 2> "$out/load.err" &
load=$!
sleep "$after"
moves() { psql_ -d "$db" -c "select count(*) from games_move"; }
[ -z "$statements" ] || psql_ -d postgres -c "select pg_stat_statements_reset()" >/dev/null
redis-cli -h "$redis_host" -p "$redis_port" config resetstat >/dev/null
before=$(moves)
pids=()
n=0
for pid in $(pgrep -f "mayi_site.serve" || true); do
    "$spy" record --pid "$pid" --duration "$seconds" --rate 200 --nonblocking --gil --format raw \
        --output "$out/daphne$n.txt" >/dev/null 2>&1 & pids+=($!); n=$((n + 1))
done
n=0
for pid in $(pgrep -f "celery -A mayi_site worker" || true); do
    "$spy" record --pid "$pid" --subprocesses --duration "$seconds" --rate 200 --nonblocking --gil \
        --format raw --output "$out/worker$n.txt" >/dev/null 2>&1 & pids+=($!); n=$((n + 1))
done
wait "${pids[@]}"
after_moves=$(moves)
echo "moves committed while profiled: $((after_moves - before)) in ${seconds} s" > "$out/statements.txt"
[ -z "$statements" ] || psql_ -d postgres -F ' | ' -c "select s.calls, round(s.total_exec_time::numeric, 1) as ms, left(regexp_replace(s.query, '\s+', ' ', 'g'), 160)
    from pg_stat_statements s join pg_database d on d.oid = s.dbid
    where d.datname = '$db' order by s.calls desc limit 40" >> "$out/statements.txt"
redis-cli -h "$redis_host" -p "$redis_port" info commandstats > "$out/redis.txt"
wait "$load" || true
for f in "$out"/daphne*.txt "$out"/worker*.txt; do
    [ -s "$f" ] || continue
    echo "== $(basename "$f")"
    "$py" "$here/bench/spy_breakdown.py" "$f"
done > "$out/breakdown.txt"
echo "$out"
