# The app's messages in English (Fluent syntax: https://projectfluent.org/fluent/guide/).
# Every key here is in fr.ftl too, and the other way round (crates/server/tests/i18n_catalogues.rs).
# The pages get every message but the server's own (api-…) compiled by the server
# (crates/server/src/i18n.rs) and format them with web/i18n.js: use variables ({ $name }) and
# selections on a variable ({ $n -> [one] … *[other] … }); terms (-name) are written out.

## The server's refusals (the API's "error", with its "key"). Server-only: the pages get them
## formatted in the API's answers, not in their copy of the catalogue.
## A player of the game ($seat or $name, as the refusal says) comes in the language's words (the
## game's), with $number (singular, plural): "White's seat", "the Termides' seat".

api-body-too-large = the request body is over the limit of { $limit } bytes
api-body-unreadable = the request body: { $detail }
api-body-not-json = the request body is not the JSON expected: { $detail }
api-body-not-json-type = the request body must be JSON, sent with Content-Type: application/json
api-setting-not-string = settings: { $name } must be a string, not { $value }
api-record-fixes-start = record: it fixes the start position and the settings: give neither (and no clock: an imported game has none)
api-import-key = key: 32 to 128 letters, digits, '-' or '_' (a secret the client makes for one game)
api-import-key-used = key: another game was saved with this key
api-game-missing = game: missing (the game id, as "ackenhead"), or give a record
api-query = the query: { $detail }
api-request-failed = the request failed: { $detail }
api-bad-request = the request cannot be read: { $detail }
api-no-endpoint = no such API endpoint (see docs/api.md)
api-unknown-game = { $detail }
api-no-rules-text = no rules text for { $game }
api-rules-lang = lang: { $lang } is not a language of the app (en, fr)
api-explore-settings-and-position = settings: the position fixes them: give a position or settings
api-position = position: { $detail }
api-settings = settings: { $detail }
api-put-not-a-cell = put: { $cell } is not a cell of the { $game } board
api-put = put: { $detail }
api-line-move = moves: move { $n } { $move }: { $detail }
api-move-game-over = move { $move }: the game is over
api-computer-turn = it is the computer's turn ({ $seat }), not a human seat's
api-seat-open = { $number ->
    [plural] the { $seat }' seat
   *[singular] { $seat }'s seat
  } is open: nobody has joined it yet
api-not-your-turn = this token does not hold the seat to move ({ $seat })
api-time-ran-out = move { $move }: { $number ->
    [plural] the { $seat }' time
   *[singular] { $seat }'s time
  } ran out
api-move-refused = move { $move }: { $detail }
api-stale-version = the game changed since version { $seen } (it is at version { $version }): nothing was changed; read the state again
api-changed-first = another change of this game came first: nothing was changed; read the state again
api-cannot-replay = game { $id } cannot be replayed
api-internal = { $detail }
api-seat-range = seat { $seat }: the game has seats 0 to { $last }
api-seat-taken = seat { $seat } ({ $name }) was taken by someone else
api-seat-not-open = seat { $seat } ({ $name }) is not open
api-join-changed = seat { $seat } ({ $name }): the game changed (someone else may have taken the seat): read the state again
api-game-over-for = { $what }: the game is over
api-takeback-pending = takeback: this seat's proposal is already pending
api-takeback-none-to-accept = takeback: there is no proposal of another seat to accept
api-takeback-none-to-decline = takeback: there is no proposal to decline
api-takeback-no-move = takeback: no move of yours to take back
api-no-game = no game { $id }
api-at-beyond = at={ $at }: the game has { $played ->
    [one] { $played } move
   *[other] { $played } moves
  } so far
api-seat-out = seat { $seat } ({ $name }) is already out of the game
api-rematch-not-over = rematch: the game is not over
api-rematch-exists = rematch: already created, game { $game }
api-rematch-none-to-decline = rematch: there is no offer to decline
api-rematch-none-to-accept = rematch: there is no offer of another seat to accept
api-rematch-pending = rematch: this seat's offer is already pending
api-too-many-games = this client has { $open } unfinished games made in the last 24 hours, the most it may have: finish or resign some first
api-record = record: { $detail }
api-record-empty = record: it holds no game
api-record-other-game = record: a game of { $record }, not of { $game }
api-settings-and-position = settings and position: a position string fixes the settings, give one or the other
api-seat-count = seats: { $game } has { $players } players, { $given } seats were given
api-seat-kind = { $detail }
api-not-your-seat = this token does not hold seat { $seat } ({ $name })
api-no-seat = { $what }: this token holds no seat of the game
api-bad-answer = action: { $action } is not one of offer (or propose), accept, decline
api-bad-draw-action = action: { $action } is not one of offer, accept, decline
api-stored-first = another move was stored first: read the state again
api-database-down = the database is not answering: nothing was changed, try again
api-draw-two-players = draw: only in two-player games ({ $game } has { $players })
api-claim-unrated = claim: only a rated game with a clock can be claimed against a player who left
api-claim-own-seat = claim: a player cannot claim against their own seat
api-claim-early = claim: { $number ->
    [plural] the { $name } have
   *[singular] { $name } has
  } not been gone long enough (another { $seconds } s)
api-claim-result = claim: the result is "win" or "draw", not { $result }
api-draw-pending = draw: this seat's offer is already pending
api-draw-computer-busy = draw: the computer cannot consider the offer now: { $detail }
api-draw-changed = draw: the game changed while the computer considered the offer
api-draw-no-offer = draw: { $number ->
    [plural] the { $seat } have
   *[singular] { $seat } has
  } no pending offer to { $action }
api-clock-not-numbers = clock: minutes and increment must be numbers, 0 or more
api-clock-zero = clock: minutes and increment cannot both be 0
api-clock-too-long = clock: at most 180 minutes and 180 seconds of increment
api-too-many = too many { $what ->
    [games] new games
    [websockets] open WebSockets
    [streams] open streams
    [logins] wrong passwords
   *[requests] requests
  } from this client: try again in { $secs } s
api-cross-site = refused: this request comes from another site, or carries the session cookie without saying where it comes from (an Origin or Sec-Fetch-Site header)
api-account-name = name: 2 to 20 letters (a to z), digits, _ or -, beginning with a letter or a digit
api-account-password = password: { $least } to { $most } characters
api-account-taken = name: this name is taken
api-login-failed = wrong name or password
api-not-logged-in = not logged in: log in first
api-wrong-password = password: wrong password
api-rated-rules = rated: a rated game is made by a logged-in account, with a clock, one "online" seat (yours) and the others "open"; no position nor record
api-rated-one-seat = rated: this account already holds a seat of the game
api-seat-claimed = seat { $seat } ({ $name }) is already an account's
api-claim-one-seat = this account already holds a seat of the game
api-no-user = no account named { $name }
api-no-seek = no seek or challenge { $id }
api-seek-closed = this seek is no longer open: accepted, cancelled or declined
api-seek-not-yours = this seek or challenge is not yours to act on
api-seek-own = you cannot accept or challenge yourself
api-seek-range = your rating ({ $rating }) is outside the range this seek asks for ({ $min } to { $max })
api-seek-seat = seek: the seat is a number from 0 to { $last } or "random", not { $seat }
api-seek-range-rules = a rating range needs a clock, and goes from a lower to a higher rating between 0 and 4000
api-too-many-seeks = an account has at most { $most } open seeks and challenges: cancel some first

## Every page

lang-switch = Language
loading = Loading…
error-unreachable = the server cannot be reached (is it running?)
error-status = the server answered { $status }
unknown-game = unknown game kind { $game }

## The home page (web/index.html, web/home.js)

home-title = myrmidon
home-tagline = four strategy games, against the computer or a friend
home-choose = Choose a game
home-games = Games
home-loading-games = Loading the games…
home-your-games = Your games
games-error = Could not load the games: { $error }
board-hex = hexagon, { $cells } cells
game-players = { $n ->
    [one] { $n } player
   *[other] { $n } players
  }
game-rules-link = rules
setup-title = New game:
setup-opponent = Opponent
mode-computer = Against the computer
mode-local = On this screen
mode-online = Online
setup-clock = Clock
clock-none = None
clock-1-0 = 1 minute each, no increment
clock-3-2 = 3 minutes each, 2 seconds a move
clock-5-3 = 5 minutes each, 3 seconds a move
clock-10-5 = 10 minutes each, 5 seconds a move
clock-15-10 = 15 minutes each, 10 seconds a move
clock-custom = Custom
clock-minutes = Minutes each
clock-increment = Increment (seconds)
clock-invalid = The clock needs a number of minutes above 0 and seconds of 0 or more.
setup-position = Start from a position
setup-position-label = Position string (optional)
setup-position-placeholder = the game's start position
setup-position-hint = A position string fixes the settings.
setup-record = Continue a game record
setup-record-label = Game record (PGN-like text, as "Download record" gives it), pasted or from a file
setup-record-file = Game record file
setup-record-hint = The record's game goes on from its last move, with the seats chosen above; the record fixes the start position and the settings.
setup-start = Start
level-label = Level
# $which: first, last or other (the beginner's level, the strongest).
level = Level { $level }{ $which ->
    [first] {" "}(beginner)
    [last] {" "}(strongest)
   *[other] {""}
  }
level-computer = Computer, level { $level }{ $which ->
    [first] {" "}(beginner)
    [last] {" "}(strongest)
   *[other] {""}
  }
# A computer level with its rating against people: $name is the level's name (as above).
level-about = { $name } · about { $rating }
local-hint = Every seat is played on this screen: { $players } take turns.
you-play = You play
side-random = Random
other-seats = The other seats
seat-person = A person
seat-human = Human
list-in-lobby = List in the lobby
online-hint-public = Anyone may take the other seats: from the lobby, or with the game's address.
online-hint-private = You get an invitation link for each other seat, to send to whom you choose.
online-needs-person = An online game needs another person: make at least one other seat "A person".
recent-online = online
recent-local = on this screen
recent-computer = against the computer
seeks-title = Seeks: players looking for a game
seeks-empty = Nobody is seeking a game now. Choose a game and "Online", then post a seek.
seeks-empty-besides = Besides the challenges above, nobody is seeking a game in the lobby now.
seek-legend = Or ask the lobby for a player
seek-rated = Rated (needs an account and a clock)
seek-min = Lowest rating
seek-max = Highest rating
seek-to = Challenge the player named
seek-post = Post the seek
seek-posted = Your seek is in the lobby: the game starts when a player accepts it.
challenge-posted = Your challenge is sent to { $name }: the game starts when they accept it.
challenge-declined = { $name } declined your challenge.
seek-is-rated = rated
seek-is-casual = casual
seek-range = ratings { $min } to { $max }
seek-by = { $name } ({ $rating })
seek-anonymous = anonymous
seek-accept = Accept
seek-cancel = Cancel
seek-decline = Decline
lobby-title = Lobby: games waiting for players
lobby-empty = No game is waiting for players now. An online game "listed in the lobby" shows here.
lobby-error = Could not load the lobby: { $error }
lobby-no-clock = no clock
lobby-clock = clock
lobby-moves = { $n ->
    [one] { $n } move played
   *[other] { $n } moves played
  }
lobby-not-started = not started
lobby-created = created { $ago }
ago-now = just now
ago-minutes = { $n } min ago
ago-hours = { $n } h ago
ago-days = { $n ->
    [one] { $n } day ago
   *[other] { $n } days ago
  }
join-as = Join as { $player }
join-error = Could not join as { $player }: { $error }

## Seats (both pages)

seat-open = open
seat-taken = taken
# (a no-break space between "level" and its number: a line never breaks between them)
seat-computer = computer, level { $level }
seat-n = seat { $n }
seat-local = on this screen
seat-you = you
seat-online = online
seat-one-screen = on one screen
seat-out = out

## The game page (web/game.html, web/game.js)

game-title = Game · myrmidon
game-rules = Rules
rules-of = The rules of { $game }
game-spectating = spectating
    .title = You hold no seat in this game: you watch it live
game-disconnected = disconnected
local-playing = The server cannot be reached: this game goes on in this browser. It will be saved to the server once it is over and the server answers.
local-save-pending = The game is over. It will be saved to the server as soon as the server answers.
local-saved = Played in this browser, and saved to the server.
local-open-saved = Open the saved game
local-refused = The server did not take this game: { $error }
local-missing = This game is not kept in this browser.
game-players-label = Players
game-load-error = Could not load the game: { $error }
no-game-id = No game id in the address.
flag-thinking = thinking
flag-to-move = to move
flag-winner = winner
captured-label = { $player } has lost: { $pieces }
clock-label = { $number ->
    [plural] the { $player }' clock
   *[singular] { $player }'s clock
  }
status-thinking = { $player }: computer thinking…
status-to-move = { $player } to move
status-your-turn = Your turn ({ $player })
status-open-seat = { $player } to move: waiting for someone to take the seat
status-watching = { $player } to move (you are watching)
status-check = {" "}— check!
# $number: how the sentence takes the player's name, "singular" (White) or "plural" (a people,
# the Termides): the game's (GameInfo::players_number, or its name's .number in a catalogue).
outcome-win = { $number ->
    [plural] The { $player } win { $reason }
   *[singular] { $player } wins { $reason }
  }
outcome-draw = draw { $reason }
outcome-out = { $number ->
    [plural] the { $player } are out { $reason }
   *[singular] { $player } is out { $reason }
  }
outcome-with-out = { $outcome } ({ $out })
reason-agreement = by agreement
reason-resignation = by resignation
reason-time = on time
reason-abandonment = by abandonment
reason-repetition = by threefold repetition
reason-checkmate = by checkmate
reason-stalemate = by stalemate
reason-no-progress = by the no-progress rule
reason-passes = by every player passing
reason-adjudication = by adjudication
reason-illegal-move = by forfeit (illegal move)
reason-crash = by forfeit (engine crash)
reason-last-queen = by holding the last Queen
reason-bare-kings = by bare Kings
reason-queen-captured = by capturing the Queen
reason-crossing = by crossing
reason-no-move = by leaving the opponent no move
reason-anthill = by reaching the anthill
reason-no-queens = as no Queen is left
reason-queen-lost = by losing the Queen
pass = Pass
pass-with = Pass ({ $move })
pass-only = No other move:
pass-instead = Instead of a move, you may
decline = Decline
withdraw = Withdraw
do-you-accept = { $player }, do you accept?
names-and = { $first } and { $last }
# Each name of a list after "waiting for" (takeback-waiting…), and the list when it names no one.
awaited-player = { $player }
awaited-answer = the answer
# Each name of a list of who offers (rematch-offers).
offered-by-player = { $player }
draw-offer = Offer draw
draw-offer-for = Offer draw ({ $player })
draw-offered = Draw offered
draw-offers = { $player } offers a draw.
draw-waiting = { $player } offered a draw: waiting for the answer.
draw-accept = Accept draw
draw-declined = { $player } declines the draw.
draw-declined-computer = The computer ({ $player }) declines the draw.
takeback-propose = Propose a takeback
takeback-proposes = { $player } proposes a takeback.
takeback-proposes-waiting = { $player } proposes a takeback: waiting for { $names }.
takeback-waiting = Takeback proposed: waiting for { $names }.
takeback-accept = Accept takeback
takeback-declined = { $player } declines the takeback.
rematch = Rematch
rematch-accept = Accept rematch
rematch-go = Go to the rematch
rematch-waiting = Rematch offered: waiting for { $names }.
rematch-offers = { $n ->
    [one] { $names } offers a rematch.
   *[other] { $names } offer a rematch.
  }
rematch-declined-by = { $player } declines the rematch.
rematch-declined = The rematch is declined.
game-analyse-over = Analyse the game
waiting-players = Waiting for players: { $names }
copy-address = Copy this game's address
copy-address-hint = anyone who opens it may join
invites-title = Invitations
invites-hint = Send each person their link: whoever opens it plays that seat. Keep the links to yourself otherwise.
invite-link-for = Invitation link for { $player }
copy = Copy
copied = Copied ✓
moves-title = Moves
moves-browse = Browse the moves
moves-list = Move list
moves-none = No moves yet.
move-label = move { $n }, { $player }: { $move }
nav-first = First position
    .title = First position (Home)
nav-prev = Previous move
    .title = Previous move (←)
nav-next = Next move
    .title = Next move (→)
nav-last = Current position
    .title = Current position (End)
back-live = Back to the game
viewing-start = Viewing the start position
viewing-move = Viewing move { $n }: { $move }
view-error = Could not show move { $n }: { $error }
entry-label = Type a move
entry-placeholder = e.g. e2d3
entry-example = e.g. { $move }
entry-play = Play
board-zoom = Zoom in
    .title = Bigger cells, for a finger: the board scrolls
board-unzoom = Whole board
tool-sound-on = Sound on
tool-sound-off = Sound off
theme-dark = Dark mode
header-analysis = Analysis board
board-theme = Board
board-theme-wood = Wood
board-theme-green = Green
board-theme-blue = Blue
tool-share = Share
    .title = This game's address, to send (no seat comes with it: whoever opens it watches)
tool-turn = Turn to the player to move
repeat-note = This position has occurred { $n } times: once more, and the game is drawn by repetition.
tool-flip = Flip board
tool-names = Cell names
tool-copy = Copy position
tool-takeback = Take back
tool-download = Download record
tool-analyse = Analyse
tool-new-game = New game
resign = Resign
resign-confirm = Confirm: { $player } resigns
claim-win = { $player } left the game: claim the win
claim-win-short = Claim the win
claim-draw = Claim a draw
no-seat-here = You do not hold a seat in this game (no token on this browser).

## The board (web/board/: the game page, and the rules and analysis pages' boards)

board-label = Board: arrow keys move between cells, Enter or Space selects a piece and plays a move
cell-empty = empty
player-n = player { $n }
piece-of = { $player } { $piece }
cell-selected = selected
cell-move-here = move here
cell-in-check = in check
chooser-title = Which move?
chooser-takes = takes { $cells }
cancel = Cancel

## The rules pages (web/rules.html, web/rules.js): the page around each game's own text

rules-page-title = Rules · myrmidon
rules-title = Rules of { $game }
rules-nav = Pages
rules-nav-home = Home
rules-nav-analysis = Analysis board
rules-tabs = Rules of the other games
rules-play = Play { $game }
rules-try = Try the pieces
rules-toc = On this page
rules-load-error = Could not load the rules: { $error }
rules-no-game-title = No such game
rules-no-game = There is no game "{ $game }" here.
rules-no-game-list = The rules of:
rules-diagram-n = Diagram { $n }
rules-diagram-click = click a piece to see its moves
rules-diagram-try = Try it in the explorer
rules-diagram-failed = This diagram could not be drawn: { $error }
rules-diagram-no-piece = no piece on { $cell } to show
rules-ex-help = Click a piece to see where it can go. To set up a position, choose a piece below, then click cells; right-click a cell to empty it.
rules-ex-start = Start position
rules-ex-clear = Empty board
    .title = Remove every piece the game can do without
rules-ex-modes = What a click on the board does
rules-ex-select = Show moves
    .title = Click a piece to see its moves
rules-ex-erase = Erase
    .title = Click a cell to empty it
rules-ex-tools = Pieces to put
rules-ex-close = Click to close
rules-legend = What the marks mean
rules-legend-move = a move
rules-legend-capture = a capture
rules-legend-taken = a piece taken on the way
rules-ex-who-moves = Who moves
rules-ex-position = Position string
rules-ex-load = Load
rules-ex-analyse = Analyse this position
rules-ex-select-copy = Select and copy
rules-ex-refused = Not possible: { $error }
rules-ex-line = This move carries a whole line of pieces: set the pieces up with the tools instead.
rules-ex-put = Put a { $piece }
rules-ex-put-hint = Click a cell to put a { $piece } there.
rules-ex-erase-hint = Click a piece to take it off the board.
rules-ex-click-hint = Click a piece to see its moves.
rules-ex-over = In this position the game is over: { $outcome }.
rules-ex-to-move = { $player } to move.
rules-ex-to-move-check = { $player } to move, in check.
rules-ex-piece-on = { $piece } on { $cell }:
rules-ex-no-answer = its moves cannot be shown here ({ $error }).
rules-ex-no-move = no move from here.
rules-ex-moves = { $cells ->
    [one] { $cells } cell
   *[other] { $cells } cells
  } to go to, { $captures ->
    [0] no capture.
    [one] { $captures } move captures.
   *[other] { $captures } moves capture.
  }
rules-ex-as-if = (as if { $player } were to move)

## Accounts and profiles

account-title = Account
account-tagline = Your account
account-signup = Sign up
account-login = Log in
account-logout = Log out
account-name = Name
account-password = Password
account-logged-in = Logged in as { $name }
account-profile = Your profile
profile-title = Player
profile-tagline = Player
profile-ratings = Ratings
profile-results = Wins, draws and losses
profile-games = Games
profile-export = Download all their games (game records)
profile-graph = the rating after each rated game
profile-no-ratings = No rated game yet.
profile-no-games = No finished game yet.
profile-rated-games = { $games ->
    [one] one rated game
   *[other] { $games } rated games
  }
# a label before its value, as "blitz: 1500"
profile-label = { $text }:
profile-wdl = { $win } won, { $draw } drawn, { $loss } lost
profile-rated = rated
profile-casual = casual
profile-result-win = won
profile-result-draw = drawn
profile-result-loss = lost
profile-result-playing = in play
# $names: the other players of a game, joined as the language joins a list
profile-against = against { $names }
profile-opponent-computer = the computer (level { $level })
speed-bullet = bullet
speed-blitz = blitz
speed-rapid = rapid
speed-classical = classical
# The end of a rated game: what it did to its players' ratings. $speed is a speed's name
# (above); $before and $after are ratings (a "?" after a provisional one), $change signed.
rating-change-title = Ratings ({ $speed })
rating-change-line = { $name }: { $before } → { $after } ({ $change })
rating-change-deleted = a deleted account
rating-provisional = ?: a provisional rating, after few rated games
ratings-title = Ratings · myrmidon
ratings-title-plain = Ratings
ratings-tagline = The best players
ratings-heading = Ratings: { $game }
ratings-games = Games
ratings-rank = #
ratings-player = Player
ratings-rating = Rating
ratings-games-played = Rated games
ratings-none = No rated game of this game yet.
ratings-unknown-game = No game “{ $game }”.
ratings-note = Ratings come from rated games between players (Glicko-2), one a game and speed; a question mark: a rating still provisional. A game against the computer never changes a player's rating: it rates the computer's level.
ratings-levels = The computer's levels
ratings-levels-games = Games against people
header-ratings = Ratings
profile-rating-list = the rating list

## The analysis board (web/analysis.html, web/analysis.js)

an-page-title = Analysis board · myrmidon
an-page-title-game = Analysis · { $game } · myrmidon
an-engine-disconnected = engine disconnected
an-flip = Flip
an-game = Game
an-position = Position string
    .placeholder = a position string
an-load = Load
an-start-position = Start position
an-copy-position = Copy position
an-copy-press = Press Ctrl+C
an-engine = Engine
an-evaluation = The evaluation
an-start = Start
an-stop = Stop
an-lines = Lines
an-time = Time
an-best-lines = The engine's best lines
an-search-log = Search log
an-log-depth = depth
an-log-score = score
an-log-time = time
an-log-line = line
an-graph-title = Evaluation over the game
an-nav-last = Last position
    .title = Last position (End)
an-moves-hint = Play moves on the board to explore a line; the engine follows the position shown.
an-moves-none-game = No moves in this game.
an-moves-none = No moves yet: play one on the board.
an-scores-two = Scores in pawns from { $number ->
    [plural] the { $first }'
   *[singular] { $first }'s
  } side: + is good for { $first }, − for { $second }; #n: a win in n moves.
an-scores-mover = Scores in pawns for the player to move; #n: a win in n moves.
an-scores-mover-named = Scores in pawns for the player to move ({ $player }); #n: a win in n moves.
an-engine-lost = The connection to the engine was lost; press Start again.
an-engine-refused = The engine refused: { $error }
an-engine-browser = The engine thinks in this browser.
an-engine-server = The engine thinks on the server.
an-stats = depth { $depth } · { $nodes } nodes · { $knps } kn/s · { $seconds } s
an-searching = searching…
an-done-best = done, best move { $move }
an-done-none = done: no move to play here
an-over = The game is over in this position: nothing to analyse.
an-press-start = Press Start to let the engine think about this position.
an-graph-lost = the connection to the engine was lost
an-graph-end = the end
an-graph-start = the start
an-graph-after = after move { $n } ({ $move })
an-graph-label = { $number ->
    [plural] The { $player }' evaluation after each move; click to go to a move
   *[singular] { $player }'s evaluation after each move; click to go to a move
  }
an-graph-failed = The graph could not be computed: { $error }
an-graph-running = Evaluating the positions… { $done } of { $total }
an-graph-done = { $number ->
    [plural] The { $player }'
   *[singular] { $player }'s
  } side, in pawns (clamped to ±10; a mate at the edge), at 0.1 s a position. Click to go to a move.
an-graph-three = No evaluation graph for a three-player game: a score there is one player's view only. The engine's lines above still work.
an-status-start = Start · { $status }
an-status-after = After move { $n }, { $move } · { $status }
an-line-after = Your line after move { $n } of the game
an-move-failed = Could not show move { $n }: { $error }
an-move-refused = The move { $move } was refused: { $error }
an-line-refused = The line of the address was refused: { $error }
an-position-failed = Could not load that position: { $error }
an-game-failed = Could not load game { $id }: { $error }
an-games-failed = Could not load the games: { $error }
an-source-game = Game
an-source-detail = : { $players }, { $n ->
    [one] { $n } move
   *[other] { $n } moves
  }
an-source-going-on = still going on
