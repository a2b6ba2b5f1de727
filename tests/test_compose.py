"""compose.yaml: validated against the Compose specification's JSON schema by check-jsonschema
(its bundled copy, offline; the check-jsonschema package of the test extras), and holding what
the README's "Running at scale" promises: PostgreSQL with a volume and a health check, two bot
processes splitting the shards, each waiting for a healthy database and checked on /healthz,
their settings ones the bot accepts."""
from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import yaml

from bot.config import Settings

ROOT = Path(__file__).resolve().parent.parent
COMPOSE = ROOT / "compose.yaml"
BOTS = ("bot-shard-0", "bot-shard-1")
INTERPOLATION = re.compile(r"\$\{(\w+)(?::([-?])([^}]*))?\}")
GIVEN = {"DISCORD_TOKEN": "a-token", "POSTGRES_PASSWORD": "a-password"}  # what .env would hold


def interpolated(value: str) -> str:
    """Compose's ${VAR:-default} and ${VAR:?error} with only GIVEN set."""
    def one(m: re.Match[str]) -> str:
        if m[1] in GIVEN:
            return GIVEN[m[1]]
        assert m[2] != "?", f"{m[1]} is required"
        return m[3] or ""
    return INTERPOLATION.sub(one, value)


def check_jsonschema() -> str:
    beside = Path(sys.executable).parent / "check-jsonschema"
    found = str(beside) if beside.exists() else shutil.which("check-jsonschema")
    assert found, "check-jsonschema is missing: pip install -e '.[test]'"
    return found


def lint(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([check_jsonschema(), "--builtin-schema", "vendor.compose-spec", str(path)],
                          check=False, capture_output=True, text=True, timeout=120)


def services() -> dict:
    return yaml.safe_load(COMPOSE.read_text())["services"]


def test_the_compose_file_follows_the_compose_specification():
    done = lint(COMPOSE)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_linter_would_catch_a_bad_compose_file(tmp_path):
    bad = tmp_path / "compose.yaml"
    bad.write_text("services:\n  bot:\n    image: fieldpost\n    depends_on:\n      db:\n        condition: healthy\n")
    done = lint(bad)
    assert done.returncode != 0 and "service_healthy" in done.stdout


def test_postgres_keeps_its_data_on_a_volume_and_says_when_it_is_ready():
    compose = yaml.safe_load(COMPOSE.read_text())
    pg = compose["services"]["postgres"]
    assert pg["image"] == "postgres:15"
    assert "pgdata:/var/lib/postgresql/data" in pg["volumes"] and "pgdata" in compose["volumes"]
    assert "pg_isready" in " ".join(pg["healthcheck"]["test"])
    assert pg["environment"]["POSTGRES_PASSWORD"].startswith("${POSTGRES_PASSWORD:?")  # never a default password


def test_two_bot_processes_split_the_shards_over_one_postgresql():
    found = services()
    assert set(found) == {"postgres", *BOTS}
    shards = []
    for name in BOTS:
        bot = found[name]
        env = bot["environment"]
        assert bot["build"] == "." and bot["depends_on"] == {"postgres": {"condition": "service_healthy"}}
        assert env["DISCORD_TOKEN"].startswith("${DISCORD_TOKEN:?")  # from the environment or .env
        assert env["FIELDPOST_DB"].startswith("postgresql://") and "@postgres:5432/" in env["FIELDPOST_DB"]
        assert env["FIELDPOST_SHARDS"] == "2"
        shards.append(env["FIELDPOST_SHARD_IDS"])
        check = " ".join(bot["healthcheck"]["test"])
        assert f"127.0.0.1:{env['FIELDPOST_HTTP_PORT']}/healthz" in check
        assert env["FIELDPOST_HTTP_HOST"] == "0.0.0.0"
        assert all(port.startswith("127.0.0.1:") for port in bot["ports"])  # metrics stay on the host
    assert sorted(shards) == ["0", "1"]


def test_each_bots_settings_are_ones_the_bot_accepts(monkeypatch):
    for name in BOTS:
        for key, value in services()[name]["environment"].items():
            monkeypatch.setenv(key, interpolated(str(value)))
        settings = Settings()
        assert settings.fieldpost_shards == 2 and len(settings.fieldpost_shard_ids) == 1
        assert settings.fieldpost_http_port == 8080 and settings.syncs_commands == (name == "bot-shard-0")
        assert str(settings.fieldpost_db).endswith("a-password@postgres:5432/fieldpost")
