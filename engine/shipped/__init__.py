"""The content shipped with Fieldpost: `assets/` (soldiers, cards, tiles, fonts …) and
`campaigns/` beside this file.

In a checkout they are links to the repository's own assets/ and campaigns/; a built wheel
holds copies, so an installed Fieldpost finds its content wherever it is installed
(`engine.core.content.default_root`, FIELDPOST_HOME overriding it). No code: a data package beside the
rules, which nothing imports (docs/architecture.md).
"""
