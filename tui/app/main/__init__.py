"""The main screen, one feature folder: ``screen.py`` (:class:`~.screen.MainScreen`: the layout
and the messages that cross its widgets) and the modules it is built from (the keys, the filter
and the tree, the panes, the operations). See docs/architecture.md, "Where things go"."""
