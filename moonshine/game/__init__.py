"""The game directory and the jobs on it: config, paths, atomic writes, git, the lock,
the journal, adjudication, reports and the site written. Imports render and below."""
