"""Fieldpost's pictures, drawn with Pillow from engine views only (docs/render.md).

`RenderService` (service.py) is what the bot uses; `render_board_png` and friends are the
synchronous doors for the console and tools; `save_phase_images` (files.py) writes a phase's
pictures to a folder.
"""
