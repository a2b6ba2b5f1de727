"""Settings from the environment (pydantic-settings): what the bot needs to run.

    DISCORD_TOKEN        the bot's token (Discord developer portal, Bot page)
    FIELDPOST_DB         the database: an SQLite file (default ./fieldpost.db), sqlite:///PATH,
                         or postgresql://USER:PASSWORD@HOST/DATABASE
    FIELDPOST_DEV_GUILD  a server id: commands are synced there at once (development)
    FIELDPOST_LOG_LEVEL  DEBUG, INFO (default), WARNING, ERROR
    FIELDPOST_ERROR_CHANNEL  a channel id: unexpected errors are reported there (id, command,
                         game, exception type and traceback; never what a player typed)
    FIELDPOST_SHARDS     the deployment's total shard count (unset: one unsharded connection)
    FIELDPOST_SHARD_IDS  this process's shards, "0,1" or "2-3" (unset with FIELDPOST_SHARDS:
                         all of them); the process holding shard 0 syncs the command tree
    FIELDPOST_RENDER_PROCESSES  picture worker processes (default: the CPUs this process may
                         use; 0: one thread in the bot's own process)
    FIELDPOST_HTTP_PORT  serve /healthz and /metrics on this port (unset: no endpoint)
    FIELDPOST_HTTP_HOST  the endpoint's address (default 127.0.0.1; the image sets 0.0.0.0)
    FIELDPOST_RESUME_RATE  prompts a second after a restart, all bot processes together (default 20)
"""
from __future__ import annotations

import os
from typing import Annotated

from pydantic import Field, SecretStr, ValidationInfo, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict


class SettingError(Exception):
    """A setting that is well formed but cannot be put to use here (FIELDPOST_HTTP_PORT taken):
    `fieldpost bot` prints it as one line and stops."""


def usable_cpus() -> int:
    """The CPUs this process may run on (a container's cpuset, not the host's count)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def shard_list(text: str) -> tuple[int, ...]:
    """"0,1" or "2-3" or "0,4-5" as shard ids, in the order given; ValueError naming the bad part."""
    ids: list[int] = []
    for part in (p.strip() for p in text.split(",")):
        low, dash, high = part.partition("-")
        if not low.strip().isdigit() or (dash and not high.strip().isdigit()):
            raise ValueError(f"{part!r} is not a shard id or a range like 2-3")
        first, last = int(low), int(high) if dash else int(low)
        if last < first:
            raise ValueError(f"the range {part!r} runs backwards")
        ids.extend(range(first, last + 1))
    return tuple(ids)

from bot.store.database_url import DEFAULT, check_url
from bot.store.protocol import StoreError


class Settings(BaseSettings):
    model_config = SettingsConfigDict(case_sensitive=False, extra="ignore")

    discord_token: SecretStr | None = Field(None, description="the bot's token")
    fieldpost_db: str = Field(DEFAULT, description="the database: a file path, sqlite:///PATH or postgresql://…")
    fieldpost_dev_guild: int | None = Field(None, description="sync commands to this guild at once")
    fieldpost_log_level: str = Field("INFO", description="logging level")
    fieldpost_error_channel: int | None = Field(None, description="report unexpected errors in this channel")
    fieldpost_shards: int | None = Field(None, ge=1, description="the deployment's total shard count")
    fieldpost_shard_ids: Annotated[tuple[int, ...] | None, NoDecode] = Field(
        None, description="this process's shards")
    fieldpost_render_processes: int = Field(default_factory=usable_cpus, ge=0,
                                            description="picture worker processes (0: a thread)")
    fieldpost_http_port: int | None = Field(None, ge=1, le=65535, description="health and metrics port")
    fieldpost_http_host: str = Field("127.0.0.1", description="health and metrics address")
    fieldpost_resume_rate: float = Field(20.0, gt=0, description="prompts a second after a restart, all processes together")

    @field_validator("discord_token", mode="before")
    @classmethod
    def _blank_is_none(cls, value):
        return None if isinstance(value, str) and not value.strip() else value

    @field_validator("fieldpost_db", mode="before")
    @classmethod
    def _known_database(cls, value):
        try:
            return check_url(str(value))
        except StoreError as exc:
            raise ValueError(str(exc)) from exc

    @field_validator("fieldpost_dev_guild", "fieldpost_error_channel", "fieldpost_shards",
                     "fieldpost_http_port", mode="before")
    @classmethod
    def _blank_id_is_none(cls, value):
        return None if isinstance(value, str) and not value.strip() else value

    @field_validator("fieldpost_log_level")
    @classmethod
    def _known_level(cls, value: str) -> str:
        level = value.strip().upper()
        if level not in ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"):
            raise ValueError("FIELDPOST_LOG_LEVEL is one of DEBUG, INFO, WARNING, ERROR, CRITICAL")
        return level

    @field_validator("fieldpost_shard_ids", mode="before")
    @classmethod
    def _parse_shard_ids(cls, value):
        if isinstance(value, str):
            return shard_list(value) if value.strip() else None
        return value

    @field_validator("fieldpost_shard_ids")
    @classmethod
    def _shards_within_the_count(cls, value: tuple[int, ...] | None, info: ValidationInfo):
        if value is None or "fieldpost_shards" not in info.data:  # a bad count is reported on its own
            return value
        count = info.data["fieldpost_shards"]
        if count is None:
            raise ValueError("FIELDPOST_SHARD_IDS needs FIELDPOST_SHARDS, the total shard count")
        twice = sorted({i for i in value if value.count(i) > 1})
        if twice:
            raise ValueError(f"shard {', '.join(map(str, twice))} is named twice")
        beyond = [i for i in value if i >= count]
        if beyond:
            raise ValueError(f"shard {', '.join(map(str, beyond))} is not below FIELDPOST_SHARDS={count} "
                             f"(shards are 0 to {count - 1})")
        return value

    @property
    def sharded(self) -> bool:
        return self.fieldpost_shards is not None

    @property
    def syncs_commands(self) -> bool:
        """This process runs shard 0 (or is the one unsharded process): it syncs the command tree."""
        return self.fieldpost_shard_ids is None or 0 in self.fieldpost_shard_ids
