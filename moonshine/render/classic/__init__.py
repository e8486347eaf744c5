"""The classic family's texts and pages: its acknowledgement, each power's report and the
bulletin, its public archive. Imports the classic variant, ``render`` and below."""
