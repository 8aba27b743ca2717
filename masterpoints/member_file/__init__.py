"""The member file for scoring programs: number, name, club, title or category and points of a club's members
(its directors) or of a whole federation (its secretariat), as CSV or XLSX, so that a scoring program can check
membership numbers at the table before the results are ever uploaded. It carries no e-mail, birth
year or other personal data, shows no name its player hides, and every download is audited."""
