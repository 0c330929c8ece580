"""The app's flows: each thing the app does for a person is an object of its own.

`tui.app.MotherlodeApp` conducts them: screens, the command palette and the command
line ask for a flow with a typed message (`messages`), and the app hands it to the flow
that opens it (`routes`). One module per flow or small group:

- `first_run`: what opens first, after the name a first run asks;
- `menu`: the rules, the settings, quitting;
- `solo`, `hotseat`, `resume`: play on this machine (against bots, several people at
  one keyboard, a saved hot-seat game);
- `lan`: host a LAN table (or restore the saved ones), join one;
- `served`: the app as `motherlode serve` runs it for one SSH or web player;
- `replay`: the kept games, the players' stats, one game step by step;
- `table`: what the session reports reaches the lobby and the table;
- `leave`: q at a table, stepping away, quitting, the terminal closing;
- `crash`: crash logs and the report of an unexpected error;
- `window`: the terminal's size.

`base.Flow` holds what they share: the app, and how a launcher (`tui.modes`) opens a
session that the app attaches.
"""
