"""English dates as ISO 8601 (2027-04-06), never the US order Django's English uses ("04/06/2027" for
6 April): the readers are Danish and Croatian players reading in English. Danish and Croatian keep
Django's own conventions ("6. april 2027", "6.4.2027."; "6. travnja 2027.")."""

DATE_FORMAT = "Y-m-d"
SHORT_DATE_FORMAT = "Y-m-d"
DATETIME_FORMAT = "Y-m-d H:i"
SHORT_DATETIME_FORMAT = "Y-m-d H:i"
MONTH_DAY_FORMAT = "j F"
YEAR_MONTH_FORMAT = "F Y"
FIRST_DAY_OF_WEEK = 1  # Monday, as in Denmark and Croatia
DATE_INPUT_FORMATS = ["%Y-%m-%d", "%d.%m.%Y", "%d/%m/%Y"]
DATETIME_INPUT_FORMATS = ["%Y-%m-%d %H:%M:%S", "%Y-%m-%d %H:%M", "%Y-%m-%d"]
