"""Names only a framework uses, for the dead-code check (``python -m tools.deadcode``). Keep it short:
each line says who calls it."""
# ruff: noqa: F821

templatename  # Sphinx's html-page-context hook signature (book/_ext/*.py)
html_math_renderer  # a Sphinx config value the book sets (book/_ext/offline_assets.py)
required_arguments  # docutils reads a directive's signature from these (book/_ext/practice.py)
db2book_code_key  # kept on Sphinx's environment between builds (book/_ext/exec_cache.py)
flavor  # fontTools' subsetting options (book/_ext/theme_weight.py)
ignore_missing_unicodes  # fontTools' subsetting options
handle_starttag  # html.parser.HTMLParser's callbacks (tools/chartspecs.py)
handle_endtag
handle_data
do_POST  # http.server's request handlers (widgets/svgserver.py, tools/site.py)
log_message
daemon_threads  # socketserver's option
_repr_html_  # IPython's display protocol (widgets/ledger.py)
ClassKernelManager  # named on Voila's command line (Makefile: make voila)
obj_id  # libcachesim's request fields (bench/simulator_bench.py)
course_id  # nbgrader's configuration (classroom/course.py)
PURPLE  # the palette's sixth colour, named with its neighbours (widgets/sql_data_insights/figures.py)
kappa_e4  # a field of SAP Banking's Sliders, read through dataclasses.asdict (widgets/sap_banking/calibration.py)
restart_limit  # jupyter_client's KernelRestarter setting (classroom/voila_pool.py: a death is reported, not restarted)
