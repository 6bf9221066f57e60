import os

os.environ.setdefault("DB2BOOK_BUILD", "0")  # tests render charts as the live surfaces do
