"""The bundled maps, as data: the Chicago map (``chicago-1920s.yaml``) and its
geometry (``chicago-1920s.geojson``), and one folder per board of the classic family
(``classic/``, ``pure/``). Installed as the package ``moonshine.maps``; this file
only makes the folder a package, so that the wheel ships it and the code finds it
the same way installed or in a checkout."""
