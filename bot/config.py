"""Settings from the environment (pydantic-settings): what the bot needs to run.

    DISCORD_TOKEN        the bot's token (Discord developer portal, Bot page)
    FIELDPOST_DB         the database: an SQLite file (default ./fieldpost.db), sqlite:///PATH,
                         or postgresql://USER:PASSWORD@HOST/DATABASE
    FIELDPOST_DEV_GUILD  a server id: commands are synced there at once (development)
    FIELDPOST_LOG_LEVEL  DEBUG, INFO (default), WARNING, ERROR
    FIELDPOST_ERROR_CHANNEL  a channel id: unexpected errors are reported there (id, command,
                         game, exception type and traceback; never what a player typed)
    FIELDPOST_RESUME_RATE  prompts a second after a restart, all bot processes together (default 20)
"""
from __future__ import annotations

from pydantic import Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from bot.store.database_url import DEFAULT, check_url
from bot.store.protocol import StoreError


class Settings(BaseSettings):
    model_config = SettingsConfigDict(case_sensitive=False, extra="ignore")

    discord_token: SecretStr | None = Field(None, description="the bot's token")
    fieldpost_db: str = Field(DEFAULT, description="the database: a file path, sqlite:///PATH or postgresql://…")
    fieldpost_dev_guild: int | None = Field(None, description="sync commands to this guild at once")
    fieldpost_log_level: str = Field("INFO", description="logging level")
    fieldpost_error_channel: int | None = Field(None, description="report unexpected errors in this channel")
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

    @field_validator("fieldpost_dev_guild", "fieldpost_error_channel", mode="before")
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
