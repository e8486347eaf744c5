"""The one painter: a scene of plain shapes written as SVG or drawn as PNG, and the
charts. Knows no variant (each variant builds its scene); imports only the leaves."""
