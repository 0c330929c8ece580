"""Each game's app side, in a folder of its own (``tui.games.<key>``): its table screen,
its replay screen and the widgets only it draws, behind one ``tui.plugin.AppGame``
object the catalogue names (``GameSpec.app``). Shared screens and widgets
(``tui.screens``, ``tui.widgets``) know no game; the registry is ``tui.plugin``."""
