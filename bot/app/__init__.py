"""Fieldpost bot.app."""
