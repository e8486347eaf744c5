"""The CLI's commands, one module per area, imported lazily by ``moonshine.cli``."""
