"""The templates of every page (jinja2): each gang's private report and the public
bulletin in text (``*.txt.j2``) and HTML (``*.html.j2``), the web site's pages, a
classic game's report and site pages (``classic_*.html.j2``), the bodies of the mail
replies to orders and of the reminders (``reply_*.txt.j2``, ``reminder.txt.j2``),
and the stylesheet of the Moonshine pages (``style.css``). Installed as the package
``moonshine.templates``; this file only makes the folder a package, so that the
wheel ships it and the code finds it the same way installed or in a checkout."""
