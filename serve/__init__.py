"""Front doors of `motherlode serve`: play over plain SSH or a browser, nothing installed."""
