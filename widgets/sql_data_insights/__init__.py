"""SQL Data Insights (Db2 13 Redbook ch. 6): models, a miniature, figures."""
