"""Each game's app side, in a folder of its own: ``tui.games.<key>`` holds its table
screen (``screen``) and the widgets only it draws (Fool's Gold's cards, Gold Nuggets'
dice and advisor). Shared screens and widgets (``tui.screens``, ``tui.widgets``) know
no game."""
