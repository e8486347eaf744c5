"""Values in, text out: acknowledgements, receipts, the words of reports and mail, the
pages rendered from ``templates/``. Imports the variants and the layers below them."""
