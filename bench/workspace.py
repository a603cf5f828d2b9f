"""A large workspace written straight into the edge's store (SQL, the edge stopped), for the
benchmarks that need many links and clicks (`analytics.py`, `console.py`).

One domain, one app, `links` links (`biq_lnk_000...<n>`, keys `k<n>`), then clicks over the
last `days` days, a tenth of them on one hot link (`HOT`), the rest spread over every link,
with the per-link daily counts and the apps' hourly counts they make, as the writer keeps
them; open events likewise. The SQL is the schema's own (SQLite or PostgreSQL): a change of
schema that breaks it fails the benchmark loudly, never silently measures something else.
"""
import os, random, sqlite3, subprocess, sys, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lib import Edge  # noqa: E402

HOST = "go.bench.test"
APP = "biq_mapp_01BENCH000000000000000000"
HOT = "biq_lnk_" + "0" * 26
DAY = 86_400_000
COUNTRIES = ["DE", "FR", "US", "GB", "JP", "BR", "IN", "ES", "IT", "NL"]


def link_id(n):
    return "biq_lnk_" + str(n).rjust(26, "0")


class Workspace:
    def __init__(self, binary, work, env, postgres=None, links=100_000, days=90):
        self.binary, self.work, self.env, self.postgres = binary, work, env, postgres
        self.links, self.days = links, days
        self.now = int(time.time() * 1000)

    # ------------------------------------------------------------ SQL, per backend

    def sql(self, statements):
        """Runs SQL on the edge's store, the edge stopped."""
        if self.postgres:
            subprocess.run(["psql", "-q", "-v", "ON_ERROR_STOP=1", self.postgres.url], input=statements, text=True,
                           check=True, stdout=subprocess.DEVNULL)
        else:
            db = sqlite3.connect(os.path.join(self.work, "edge.sqlite3"))
            db.execute("PRAGMA synchronous = OFF")
            db.executescript(statements)
            db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            db.close()

    def seq(self, n):
        """`n` rows numbered i = 0..n-1."""
        if self.postgres:
            return f"generate_series(0, {n - 1}) AS g(i)"
        return f"(WITH RECURSIVE s(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM s WHERE i < {n - 1}) SELECT i FROM s)"

    def rand(self, n):
        """A random whole number 0..n-1 per row."""
        return f"floor(random() * {n})::bigint" if self.postgres else f"((random() & 9223372036854775807) % {n})"

    def pad(self, expr):
        return f"lpad(({expr})::text, 26, '0')" if self.postgres else f"printf('%026d', {expr})"

    @staticmethod
    def day_of(column):
        return f"CASE WHEN {column} >= 0 THEN {column} / {DAY} ELSE ({column} - {DAY - 1}) / {DAY} END"

    # ------------------------------------------------------------ content

    def create(self):
        """The schema (by starting the edge once), a secret key, the domain, the app and the
        links; returns the secret key."""
        edge = Edge(1, extra_env=self.env, data_dir=self.work)
        edge.stop()
        out = subprocess.run([self.binary, "keys", "create", "--name", "bench"], capture_output=True, text=True,
                             check=True, env={**os.environ, "BIQLI_EDGE_DATA_DIR": self.work, **self.env})
        now = self.now
        self.sql(f"""
            INSERT INTO domains VALUES ('{HOST}', true, true, NULL, NULL, {now}, {now});
            INSERT INTO mobile_apps VALUES ('{APP}', 'Bench', true, NULL, NULL,
                '{{"packageName":"com.bench","sha256CertFingerprints":[],"playStoreUrl":null,"fallbackUrl":null,"sdkEnabled":true}}',
                86400, 604800, {now}, {now});
            INSERT INTO app_domains VALUES ('{APP}', '{HOST}', 0);
            INSERT INTO links (id, domain, key, url, enabled, app_id, route, metadata, dynamic_keys, deep_view,
                               has_preview, created_at, updated_at)
                SELECT 'biq_lnk_' || {self.pad('i')}, '{HOST}', 'k' || i, 'https://www.example.com/' || i, true,
                       '{APP}', '/r', '{{}}', '[]', true, false, {now} - i, {now} - i
                FROM {self.seq(self.links)};
        """)
        return out.stdout.strip()

    def make_partitions(self):
        if self.postgres:
            # The day partitions the data needs (the edge makes only the coming days').
            days = range(self.now // DAY - self.days - 1, self.now // DAY + 1)
            self.sql("".join(f"CREATE TABLE IF NOT EXISTS {t}_p{d} PARTITION OF {t} FOR VALUES FROM ({d * DAY}) "
                             f"TO ({(d + 1) * DAY});\n" for t in ("clicks", "open_events") for d in days))

    def add_clicks(self, count, label, hot_share=10):
        """`count` clicks over the last `days` days (every `hot_share`-th on the hot link),
        and the counts they make, as the writer keeps them."""
        started = time.time()
        self.make_partitions()
        rand, pad, day_of = self.rand, self.pad, self.day_of
        pairs = ("CASE {r} WHEN 0 THEN 'ios' WHEN 1 THEN 'ios' WHEN 2 THEN 'android' ELSE 'desktop' END",
                 "CASE {r} WHEN 0 THEN 'deep_view' WHEN 1 THEN 'ios_fallback' WHEN 2 THEN 'android_redirect' "
                 "ELSE 'desktop' END")
        browser = f"CASE {rand(8)} WHEN 0 THEN 'instagram' WHEN 1 THEN 'facebook' WHEN 2 THEN 'tiktok' " \
                  f"WHEN 3 THEN 'webview' ELSE NULL END"
        country = "CASE " + rand(12) + " " + " ".join(f"WHEN {i} THEN '{c}'" for i, c in enumerate(COUNTRIES)) + \
                  " ELSE NULL END"
        t = "tmp_new_clicks"
        self.sql(f"""
            CREATE TABLE {t} AS
            SELECT 'biq_clk_' || {pad('i + ' + str(random.randrange(10 ** 12)))} AS id,
                   CASE WHEN i % {hot_share} = 0 THEN '{HOT}' ELSE 'biq_lnk_' || {pad(rand(self.links))} END AS link_id,
                   {self.now} - {rand(self.days * DAY)} AS at, {rand(4)} AS pk,
                   {browser} AS in_app_browser, {country} AS country
            FROM {self.seq(count)};
            INSERT INTO clicks (id, link_id, app_id, domain, at, kind, platform, in_app_browser, country)
                SELECT id, link_id, '{APP}', '{HOST}', at, {pairs[1].format(r='pk')}, {pairs[0].format(r='pk')},
                       in_app_browser, country FROM {t};
            INSERT INTO link_click_counts (link_id, day, platform, kind, in_app_browser, count)
                SELECT link_id, {day_of('at')}, {pairs[0].format(r='pk')}, {pairs[1].format(r='pk')},
                       coalesce(in_app_browser, ''), count(*)
                FROM {t} GROUP BY 1, 2, 3, 4, 5
                ON CONFLICT (link_id, day, platform, kind, in_app_browser)
                    DO UPDATE SET count = link_click_counts.count + excluded.count;
            INSERT INTO link_country_counts (link_id, day, country, count)
                SELECT link_id, {day_of('at')}, coalesce(country, ''), count(*)
                FROM {t} GROUP BY 1, 2, 3
                ON CONFLICT (link_id, day, country) DO UPDATE SET count = link_country_counts.count + excluded.count;
            INSERT INTO click_counts (app_id, hour, platform, kind, count)
                SELECT '{APP}', at / 3600000, {pairs[0].format(r='pk')}, {pairs[1].format(r='pk')}, count(*)
                FROM {t} GROUP BY 1, 2, 3, 4
                ON CONFLICT (app_id, hour, platform, kind) DO UPDATE SET count = click_counts.count + excluded.count;
            DROP TABLE {t};
            {"ANALYZE;" if self.postgres else ""}
        """)
        print(f"{label}: {count:,} clicks written in {time.time() - started:.0f} s", file=sys.stderr)

    def add_opens(self, count, label, hot_share=10):
        """`count` open events naming links over the last `days` days (every `hot_share`-th
        the hot link), with the per-link daily counts they make. (The idempotency keys of
        PostgreSQL's `open_event_keys` are left out: only new opens would read them.)"""
        started = time.time()
        self.make_partitions()
        rand, pad, day_of = self.rand, self.pad, self.day_of
        blob = "'\\x00'::bytea" if self.postgres else "x'00'"
        empty = "''::bytea" if self.postgres else "x''"
        match = f"CASE {rand(4)} WHEN 0 THEN 'exact_app_link' WHEN 1 THEN 'exact_install_referrer' " \
                "WHEN 2 THEN 'exact_handoff' ELSE 'probabilistic' END"
        t = "tmp_new_opens"
        self.sql(f"""
            CREATE TABLE {t} AS
            SELECT 'biq_open_' || {pad('i + ' + str(random.randrange(10 ** 12)))} AS id,
                   CASE WHEN i % {hot_share} = 0 THEN '{HOT}' ELSE 'biq_lnk_' || {pad(rand(self.links))} END AS link_id,
                   {self.now} - {rand(self.days * DAY)} AS at, {match} AS matched_by, (i % 3 = 0) AS first_open,
                   CASE WHEN i % 2 = 0 THEN 'ios' ELSE 'android' END AS platform, i
            FROM {self.seq(count)};
            INSERT INTO open_events (id, app_id, instance_id, event_id, idempotency_key_hash, request_hash, platform,
                                     matched_by, first_open, sdk_version, link_id, click_id, at, stored_response)
                SELECT id, '{APP}', 'inst_' || i, 'evt_' || id, NULL, {blob}, platform, matched_by, first_open,
                       '1.0.0', link_id, NULL, at, {empty} FROM {t};
            INSERT INTO link_open_counts (link_id, day, matched_by, first_open, count)
                SELECT link_id, {day_of('at')}, matched_by, first_open, count(*) FROM {t} GROUP BY 1, 2, 3, 4
                ON CONFLICT (link_id, day, matched_by, first_open)
                    DO UPDATE SET count = link_open_counts.count + excluded.count;
            DROP TABLE {t};
            {"ANALYZE;" if self.postgres else ""}
        """)
        print(f"{label}: {count:,} open events written in {time.time() - started:.0f} s", file=sys.stderr)
