# Les messages de l'application en français (syntaxe Fluent). Mêmes clés que en.ftl.

## Les refus du serveur (le champ « error » de l'API, avec sa « key »). Réservés au serveur.
## Les détails venus de la bibliothèque des règles ($detail) restent en anglais pour l'instant.
## Un joueur de la partie ($seat ou $name, selon le refus) arrive sous son nom français (celui du
## jeu), avec $number (singular, plural) : « la place des Noirs », « les Noirs n'ont plus de temps ».

api-body-too-large = le corps de la requête dépasse la limite de { $limit } octets
api-body-unreadable = le corps de la requête : { $detail }
api-body-not-json = le corps de la requête n'est pas le JSON attendu : { $detail }
api-body-not-json-type = le corps de la requête doit être du JSON, envoyé avec Content-Type: application/json
api-setting-not-string = réglages : { $name } doit être une chaîne, pas { $value }
api-record-fixes-start = partie importée : elle fixe la position de départ et les réglages ; n'indiquez ni l'une ni les autres (ni pendule : une partie importée n'en a pas)
api-import-key = clé : de 32 à 128 lettres, chiffres, « - » ou « _ » (un secret que le client crée pour une partie)
api-import-key-used = clé : une autre partie a été enregistrée avec cette clé
api-game-missing = jeu : manquant (l'identifiant du jeu, comme « ackenhead »), ou donnez une partie à importer
api-query = la requête : { $detail }
api-request-failed = la requête a échoué : { $detail }
api-bad-request = la requête est illisible : { $detail }
api-no-endpoint = cette adresse de l'API n'existe pas (voir docs/api.md)
api-unknown-game = jeu inconnu : { $detail }
api-no-rules-text = pas de règles écrites pour { $game }
api-rules-lang = lang : { $lang } n'est pas une langue de l'application (en, fr)
api-explore-settings-and-position = réglages : la position les fixe ; donnez une position ou des réglages
api-position = position refusée : { $detail }
api-settings = réglages refusés : { $detail }
api-put-not-a-cell = pose : { $cell } n'est pas une case du plateau ({ $game })
api-put = pose refusée : { $detail }
api-line-move = coups : le coup { $n } { $move } est refusé : { $detail }
api-move-game-over = coup { $move } : la partie est finie
api-computer-turn = c'est à l'ordinateur de jouer ({ $seat }), pas à une personne
api-seat-open = { $number ->
    [plural] la place des { $seat }
   *[singular] la place de { $seat }
  } est libre : personne ne l'a encore prise
api-not-your-turn = ce jeton ne tient pas la place qui a le trait ({ $seat })
api-time-ran-out = coup { $move } : { $number ->
    [plural] les { $seat } n'ont
   *[singular] { $seat } n'a
  } plus de temps
api-move-refused = coup { $move } refusé : { $detail }
api-stale-version = la partie a changé depuis la version { $seen } (elle est à la version { $version }) : rien n'a été changé ; relisez l'état de la partie
api-changed-first = un autre changement de cette partie est arrivé le premier : rien n'a été changé ; relisez l'état de la partie
api-cannot-replay = la partie { $id } ne peut pas être rejouée
api-internal = erreur interne : { $detail }
api-seat-range = place { $seat } : les places de la partie vont de 0 à { $last }
api-seat-taken = la place { $seat } ({ $name }) a été prise par quelqu'un d'autre
api-seat-not-open = la place { $seat } ({ $name }) n'est pas libre
api-join-changed = place { $seat } ({ $name }) : la partie a changé (quelqu'un d'autre a peut-être pris la place) ; relisez l'état de la partie
api-game-over-for = { $what } : la partie est finie
api-takeback-pending = reprise : la demande de cette place attend déjà une réponse
api-takeback-none-to-accept = reprise : aucune demande d'une autre place à accepter
api-takeback-none-to-decline = reprise : aucune demande à refuser
api-takeback-no-move = reprise : vous n'avez pas de coup à reprendre
api-no-game = pas de partie { $id }
api-at-beyond = at={ $at } : la partie ne compte encore que { $played ->
    [one] { $played } coup
   *[other] { $played } coups
  }
api-seat-out = la place { $seat } ({ $name }) est déjà hors de la partie
api-rematch-not-over = revanche : la partie n'est pas finie
api-rematch-exists = revanche : déjà créée, partie { $game }
api-rematch-none-to-decline = revanche : aucune proposition à refuser
api-rematch-none-to-accept = revanche : aucune proposition d'une autre place à accepter
api-rematch-pending = revanche : la proposition de cette place attend déjà une réponse
api-too-many-games = ce client a { $open } parties inachevées créées ces dernières 24 heures, le maximum permis : terminez-en ou abandonnez-en d'abord
api-record = partie importée : { $detail }
api-record-empty = partie importée : le texte ne contient aucune partie
api-record-other-game = partie importée : son jeu est { $record }, pas { $game }
api-settings-and-position = réglages et position : une position fixe les réglages ; donnez l'une ou les autres
api-seat-count = places : { $players } joueurs pour { $game }, { $given } places ont été données
api-seat-kind = place refusée : { $detail }
api-not-your-seat = ce jeton ne tient pas la place { $seat } ({ $name })
api-no-seat = { $what } : ce jeton ne tient aucune place de la partie
api-bad-answer = action : { $action } n'est pas offer (ou propose), accept ni decline
api-bad-draw-action = action : { $action } n'est pas offer, accept ni decline
api-stored-first = un autre coup a été enregistré le premier : relisez l'état de la partie
api-database-down = la base de données ne répond pas : rien n'a été changé, réessayez
api-draw-two-players = nulle : seulement dans les parties à deux ; { $game } : { $players } joueurs
api-claim-unrated = réclamation : seule une partie classée avec pendule peut être réclamée contre un joueur parti
api-claim-own-seat = réclamation : un joueur ne peut pas réclamer contre sa propre place
api-claim-early = réclamation : { $number ->
    [plural] l'absence des { $name }
   *[singular] l'absence de { $name }
  } est encore trop courte (reste { $seconds } s)
api-claim-result = réclamation : le résultat est « win » ou « draw », pas { $result }
api-draw-pending = nulle : la proposition de cette place attend déjà une réponse
api-draw-computer-busy = nulle : l'ordinateur ne peut pas examiner la proposition maintenant : { $detail }
api-draw-changed = nulle : la partie a changé pendant que l'ordinateur examinait la proposition
api-draw-no-offer = nulle : { $number ->
    [plural] les { $seat } n'ont
   *[singular] { $seat } n'a
  } pas proposé la nulle : rien à { $action ->
    [accept] accepter
   *[decline] refuser
  }
api-clock-not-numbers = pendule : les minutes et l'incrément doivent être des nombres, 0 ou plus
api-clock-zero = pendule : les minutes et l'incrément ne peuvent pas être nuls tous les deux
api-clock-too-long = pendule : au plus 180 minutes, et 180 secondes d'incrément
api-too-many = trop { $what ->
    [games] de nouvelles parties
    [websockets] de WebSockets ouverts
    [streams] de flux ouverts
    [logins] de mots de passe erronés
   *[requests] de requêtes
  } de ce client : réessayez dans { $secs } s
api-cross-site = refusé : cette requête vient d'un autre site, ou porte le cookie de session sans dire d'où elle vient (un en-tête Origin ou Sec-Fetch-Site)
api-account-name = nom : de 2 à 20 lettres (a à z), chiffres, _ ou -, commençant par une lettre ou un chiffre
api-account-password = mot de passe : de { $least } à { $most } caractères
api-account-taken = nom : ce nom est déjà pris
api-login-failed = nom ou mot de passe erroné
api-not-logged-in = non connecté : connectez-vous d'abord
api-wrong-password = mot de passe : mot de passe erroné
api-rated-rules = partie classée : elle est créée par un compte connecté, avec une pendule, une place "online" (la vôtre) et les autres "open" ; ni position ni partie importée
api-rated-one-seat = partie classée : ce compte tient déjà une place de la partie
api-seat-claimed = la place { $seat } ({ $name }) est déjà celle d'un compte
api-claim-one-seat = ce compte tient déjà une place de la partie
api-no-user = aucun compte ne s'appelle { $name }
api-no-seek = aucune proposition ni défi { $id }
api-seek-closed = cette proposition n'est plus ouverte : acceptée, annulée ou refusée
api-seek-not-yours = cette proposition ou ce défi n'est pas le vôtre
api-seek-own = vous ne pouvez ni vous accepter ni vous défier vous-même
api-seek-range = votre classement ({ $rating }) est hors de l'écart que demande cette proposition ({ $min } à { $max })
api-seek-seat = proposition : la place est un nombre de 0 à { $last } ou « random », pas { $seat }
api-seek-range-rules = un écart de classement demande une pendule, et va d'un classement plus bas à un plus haut, entre 0 et 4000
api-too-many-seeks = un compte a au plus { $most } propositions et défis ouverts : annulez-en d'abord

## Toutes les pages

lang-switch = Langue
loading = Chargement…
error-unreachable = le serveur est injoignable (est-il lancé ?)
error-status = le serveur a répondu { $status }
unknown-game = jeu inconnu : { $game }

## L'accueil (web/index.html, web/home.js)

home-title = myrmidon
home-tagline = quatre jeux de stratégie, contre l'ordinateur ou entre amis
home-choose = Choisissez un jeu
home-games = Jeux
home-loading-games = Chargement des jeux…
home-your-games = Vos parties
games-error = Impossible de charger les jeux : { $error }
board-hex = hexagone, { $cells } cases
game-players = { $n ->
    [one] { $n } joueur
   *[other] { $n } joueurs
  }
game-rules-link = règles
setup-title = Nouvelle partie :
setup-opponent = Adversaire
mode-computer = Contre l'ordinateur
mode-local = Sur cet écran
mode-online = En ligne
setup-clock = Pendule
clock-none = Aucune
clock-1-0 = 1 minute chacun, sans incrément
clock-3-2 = 3 minutes chacun, 2 secondes par coup
clock-5-3 = 5 minutes chacun, 3 secondes par coup
clock-10-5 = 10 minutes chacun, 5 secondes par coup
clock-15-10 = 15 minutes chacun, 10 secondes par coup
clock-custom = Autre
clock-minutes = Minutes chacun
clock-increment = Incrément (secondes)
clock-invalid = La pendule demande plus de 0 minute, et 0 seconde d'incrément ou plus.
setup-position = Partir d'une position
setup-position-label = Chaîne de position (facultative)
setup-position-placeholder = la position de départ du jeu
setup-position-hint = Une chaîne de position fixe les réglages.
setup-record = Reprendre une partie enregistrée
setup-record-label = Partie enregistrée (texte de type PGN, comme le donne « Télécharger la partie »), collée ou depuis un fichier
setup-record-file = Fichier de la partie
setup-record-hint = La partie reprend à son dernier coup, avec les places choisies plus haut ; l'enregistrement fixe la position de départ et les réglages.
setup-start = Commencer
level-label = Niveau
# $which : first, last ou other (le niveau débutant, le plus fort).
level = Niveau { $level }{ $which ->
    [first] {" "}(débutant)
    [last] {" "}(le plus fort)
   *[other] {""}
  }
level-computer = Ordinateur, niveau { $level }{ $which ->
    [first] {" "}(débutant)
    [last] {" "}(le plus fort)
   *[other] {""}
  }
# Un niveau de l'ordinateur avec son classement face aux personnes : $name est le nom du niveau (comme plus haut).
level-about = { $name } · environ { $rating }
local-hint = Toutes les places se jouent sur cet écran : { $players } jouent à tour de rôle.
you-play = Vous jouez
side-random = Au hasard
other-seats = Les autres places
seat-person = Une personne
seat-human = Humain
list-in-lobby = Afficher dans le salon
online-hint-public = N'importe qui peut prendre les autres places : depuis le salon, ou avec l'adresse de la partie.
online-hint-private = Vous recevez un lien d'invitation pour chaque autre place, à envoyer à qui vous voulez.
online-needs-person = Une partie en ligne demande une autre personne : mettez au moins une autre place sur « Une personne ».
recent-online = en ligne
recent-local = sur cet écran
recent-computer = contre l'ordinateur
seeks-title = Propositions : des joueurs cherchent une partie
seeks-empty = Personne ne cherche de partie pour l'instant. Choisissez un jeu et « En ligne », puis proposez une partie.
seeks-empty-besides = En dehors des défis ci-dessus, personne ne cherche de partie dans le salon.
seek-legend = Ou demander un joueur au salon
seek-rated = Classée (demande un compte et une pendule)
seek-min = Classement le plus bas
seek-max = Classement le plus haut
seek-to = Défier le joueur nommé
seek-post = Proposer la partie
seek-posted = Votre proposition est au salon : la partie commence quand un joueur l'accepte.
challenge-posted = Votre défi est envoyé à { $name } : la partie commence quand il l'accepte.
challenge-declined = { $name } a refusé votre défi.
seek-is-rated = classée
seek-is-casual = amicale
seek-range = classements de { $min } à { $max }
seek-by = { $name } ({ $rating })
seek-anonymous = anonyme
seek-accept = Accepter
seek-cancel = Annuler
seek-decline = Refuser
lobby-title = Salon : parties qui attendent des joueurs
lobby-empty = Aucune partie n'attend de joueurs pour l'instant. Une partie en ligne « affichée dans le salon » apparaît ici.
lobby-error = Impossible de charger le salon : { $error }
lobby-no-clock = sans pendule
lobby-clock = pendule
lobby-moves = { $n ->
    [one] { $n } coup joué
   *[other] { $n } coups joués
  }
lobby-not-started = pas commencée
lobby-created = créée { $ago }
ago-now = à l'instant
ago-minutes = il y a { $n } min
ago-hours = il y a { $n } h
ago-days = il y a { $n ->
    [one] { $n } jour
   *[other] { $n } jours
  }
join-as = { $number ->
    [plural] Jouer les { $player }
   *[singular] Jouer { $player }
  }
join-error = { $number ->
    [plural] Impossible de prendre la place des { $player }
   *[singular] Impossible de prendre la place de { $player }
  } : { $error }

## Les places (les deux pages)

seat-open = libre
seat-taken = prise
# (entre « niveau » et le nombre, une espace insécable : la ligne ne se coupe pas entre eux)
seat-computer = ordinateur, niveau { $level }
seat-n = place { $n }
seat-local = sur cet écran
seat-you = vous
seat-online = en ligne
seat-one-screen = sur un seul écran
seat-out = éliminé

## La page de partie (web/game.html, web/game.js)

game-title = Partie · myrmidon
game-rules = Règles
rules-of = Règles : { $game }
game-spectating = spectateur
    .title = Vous n'avez pas de place dans cette partie : vous la regardez en direct
game-disconnected = déconnecté
local-playing = Le serveur est injoignable : la partie continue dans ce navigateur. Elle sera enregistrée sur le serveur une fois finie, dès qu'il répondra.
local-save-pending = La partie est finie. Elle sera enregistrée sur le serveur dès qu'il répondra.
local-saved = Jouée dans ce navigateur, et enregistrée sur le serveur.
local-open-saved = Ouvrir la partie enregistrée
local-refused = Le serveur n'a pas accepté cette partie : { $error }
local-missing = Cette partie n'est pas gardée dans ce navigateur.
game-players-label = Joueurs
game-load-error = Impossible de charger la partie : { $error }
no-game-id = Pas d'identifiant de partie dans l'adresse.
flag-thinking = réfléchit
flag-to-move = au trait
flag-winner = vainqueur
captured-label = { $number ->
    [plural] Les { $player } ont perdu : { $pieces }
   *[singular] { $player } a perdu : { $pieces }
  }
clock-label = { $number ->
    [plural] pendule des { $player }
   *[singular] pendule de { $player }
  }
status-thinking = { $player } : l'ordinateur réfléchit…
status-to-move = { $number ->
    [plural] Aux { $player } de jouer
   *[singular] À { $player } de jouer
  }
status-your-turn = À vous de jouer ({ $player })
status-open-seat = { $number ->
    [plural] Aux { $player } de jouer
   *[singular] À { $player } de jouer
  } : en attente de quelqu'un pour prendre la place
status-watching = { $number ->
    [plural] Aux { $player } de jouer
   *[singular] À { $player } de jouer
  } (vous regardez)
status-check = {" "}— échec !
outcome-win = { $number ->
    [plural] Les { $player } gagnent { $reason }
   *[singular] { $player } gagne { $reason }
  }
outcome-draw = Partie nulle { $reason }
outcome-out = { $number ->
    [plural] les { $player } sont hors jeu { $reason }
   *[singular] { $player } est hors jeu { $reason }
  }
outcome-with-out = { $outcome } ({ $out })
reason-agreement = par accord
reason-resignation = par abandon
reason-time = au temps
reason-abandonment = par départ de la partie
reason-repetition = par triple répétition
reason-checkmate = par échec et mat
reason-stalemate = par pat
reason-no-progress = par la règle d'absence de progrès
reason-passes = car tous les joueurs ont passé
reason-adjudication = par arbitrage
reason-illegal-move = par forfait (coup illégal)
reason-crash = par forfait (moteur planté)
reason-last-queen = en gardant la dernière Reine
reason-bare-kings = par Rois dépouillés
reason-queen-captured = en prenant la Reine
reason-crossing = par la traversée
reason-no-move = en ne laissant aucun coup à l'adversaire
reason-anthill = en atteignant la fourmilière
reason-no-queens = faute de Reine restante
reason-queen-lost = en perdant la Reine
pass = Passer
pass-with = Passer ({ $move })
pass-only = Aucun autre coup :
pass-instead = Au lieu de jouer, vous pouvez
decline = Refuser
withdraw = Retirer
do-you-accept = { $player }, acceptez-vous ?
names-and = { $first } et { $last }
# Each name of a list after "en attente" (takeback-waiting…), and the list when it names no one.
awaited-player = { $number ->
    [plural] des { $player }
   *[singular] de { $player }
  }
awaited-answer = de la réponse
# Each name of a list after "par" (rematch-offers).
offered-by-player = { $number ->
    [plural] les { $player }
   *[singular] { $player }
  }
draw-offer = Proposer la nulle
draw-offer-for = Proposer la nulle ({ $player })
draw-offered = Nulle proposée
draw-offers = { $number ->
    [plural] Les { $player } proposent la nulle.
   *[singular] { $player } propose la nulle.
  }
draw-waiting = { $number ->
    [plural] Les { $player } ont proposé la nulle
   *[singular] { $player } a proposé la nulle
  } : en attente de la réponse.
draw-accept = Accepter la nulle
draw-declined = { $number ->
    [plural] Les { $player } refusent la nulle.
   *[singular] { $player } refuse la nulle.
  }
draw-declined-computer = L'ordinateur ({ $player }) refuse la nulle.
takeback-propose = Proposer une reprise
takeback-proposes = { $number ->
    [plural] Les { $player } demandent
   *[singular] { $player } demande
  } à reprendre un coup.
takeback-proposes-waiting = { $number ->
    [plural] Les { $player } demandent
   *[singular] { $player } demande
  } à reprendre un coup : en attente { $names }.
takeback-waiting = Reprise demandée : en attente { $names }.
takeback-accept = Accepter la reprise
takeback-declined = { $number ->
    [plural] Les { $player } refusent la reprise.
   *[singular] { $player } refuse la reprise.
  }
rematch = Revanche
rematch-accept = Accepter la revanche
rematch-go = Aller à la revanche
rematch-waiting = Revanche proposée : en attente { $names }.
rematch-offers = Revanche proposée par { $names }.
rematch-declined-by = { $number ->
    [plural] Les { $player } refusent la revanche.
   *[singular] { $player } refuse la revanche.
  }
rematch-declined = La revanche est refusée.
game-analyse-over = Analyser la partie
waiting-players = En attente de joueurs : { $names }
copy-address = Copier l'adresse de la partie
copy-address-hint = quiconque l'ouvre peut rejoindre la partie
invites-title = Invitations
invites-hint = Envoyez à chaque personne son lien : qui l'ouvre joue cette place. Sinon, gardez les liens pour vous.
invite-link-for = { $number ->
    [plural] Lien d'invitation pour les { $player }
   *[singular] Lien d'invitation pour { $player }
  }
copy = Copier
copied = Copié ✓
moves-title = Coups
moves-browse = Parcourir les coups
moves-list = Liste des coups
moves-none = Aucun coup pour l'instant.
move-label = coup { $n }, { $player } : { $move }
nav-first = Position de départ
    .title = Position de départ (Début)
nav-prev = Coup précédent
    .title = Coup précédent (←)
nav-next = Coup suivant
    .title = Coup suivant (→)
nav-last = Position actuelle
    .title = Position actuelle (Fin)
back-live = Revenir à la partie
viewing-start = Vous voyez la position de départ
viewing-move = Vous voyez le coup { $n } : { $move }
view-error = Impossible d'afficher le coup { $n } : { $error }
entry-label = Saisir un coup
entry-placeholder = p. ex. e2d3
entry-example = p. ex. { $move }
entry-play = Jouer
board-zoom = Agrandir
    .title = Des cases plus grandes, pour le doigt : le plateau défile
board-unzoom = Plateau entier
tool-sound-on = Son activé
tool-sound-off = Son coupé
theme-dark = Mode sombre
header-analysis = Plateau d'analyse
board-theme = Plateau
board-theme-wood = Bois
board-theme-green = Vert
board-theme-blue = Bleu
tool-share = Partager
    .title = L'adresse de cette partie, à envoyer (sans place : qui l'ouvre regarde)
tool-turn = Tourner vers le joueur au trait
repeat-note = Cette position s'est produite { $n } fois : une fois de plus, et la partie est nulle par répétition.
tool-flip = Retourner le plateau
tool-names = Noms des cases
tool-copy = Copier la position
tool-takeback = Reprendre un coup
tool-download = Télécharger la partie
tool-analyse = Analyser
tool-new-game = Nouvelle partie
resign = Abandonner
resign-confirm = { $number ->
    [plural] Confirmer : les { $player } abandonnent
   *[singular] Confirmer : { $player } abandonne
  }
claim-win = { $number ->
    [plural] Les { $player } ont quitté la partie
   *[singular] { $player } a quitté la partie
  } : réclamer la victoire
claim-win-short = Réclamer la victoire
claim-draw = Réclamer la nulle
no-seat-here = Vous n'avez pas de place dans cette partie (aucun jeton dans ce navigateur).

## Le plateau (web/board/ : la page de partie, et les plateaux des pages de règles et d'analyse)

board-label = Plateau : les flèches passent d'une case à l'autre, Entrée ou Espace choisit une pièce et joue un coup
cell-empty = vide
player-n = joueur { $n }
piece-of = { $number ->
    [plural] { $piece } des { $player }
   *[singular] { $piece } de { $player }
  }
cell-selected = choisie
cell-move-here = aller ici
cell-in-check = en échec
chooser-title = Quel coup ?
chooser-takes = prend { $cells }
cancel = Annuler

## Les pages de règles (web/rules.html, web/rules.js) : la page autour du texte de chaque jeu

rules-page-title = Règles · myrmidon
rules-title = Règles : { $game }
rules-nav = Pages
rules-nav-home = Accueil
rules-nav-analysis = Échiquier d'analyse
rules-tabs = Les règles des autres jeux
rules-play = Jouer : { $game }
rules-try = Essayer les pièces
rules-toc = Sur cette page
rules-load-error = Impossible de charger les règles : { $error }
rules-no-game-title = Jeu inconnu
rules-no-game = Il n'y a pas de jeu « { $game } » ici.
rules-no-game-list = Les règles de :
rules-diagram-n = Diagramme { $n }
rules-diagram-click = cliquez sur une pièce pour voir ses coups
rules-diagram-try = L'essayer dans l'explorateur
rules-diagram-failed = Ce diagramme n'a pas pu être dessiné : { $error }
rules-diagram-no-piece = pas de pièce à montrer en { $cell }
rules-ex-help = Cliquez sur une pièce pour voir où elle peut aller. Pour composer une position, choisissez une pièce ci-dessous, puis cliquez sur des cases ; un clic droit vide une case.
rules-ex-start = Position de départ
rules-ex-clear = Vider le plateau
    .title = Retirer toutes les pièces dont le jeu peut se passer
rules-ex-modes = Ce que fait un clic sur le plateau
rules-ex-select = Voir les coups
    .title = Cliquez sur une pièce pour voir ses coups
rules-ex-erase = Effacer
    .title = Cliquez sur une case pour la vider
rules-ex-tools = Pièces à poser
rules-ex-close = Cliquer pour fermer
rules-legend = Ce que veulent dire les marques
rules-legend-move = un coup
rules-legend-capture = une prise
rules-legend-taken = une pièce prise en chemin
rules-ex-who-moves = Au trait
rules-ex-position = Chaîne de position
rules-ex-load = Charger
rules-ex-analyse = Analyser cette position
rules-ex-select-copy = Sélectionnez et copiez
rules-ex-refused = Impossible : { $error }
rules-ex-line = Ce coup déplace toute une ligne de pièces : placez plutôt les pièces avec les outils.
rules-ex-put = Poser : { $piece }
rules-ex-put-hint = Cliquez sur une case pour y poser : { $piece }.
rules-ex-erase-hint = Cliquez sur une pièce pour la retirer du plateau.
rules-ex-click-hint = Cliquez sur une pièce pour voir ses coups.
rules-ex-over = Dans cette position, la partie est finie : { $outcome }.
rules-ex-to-move = { $number ->
    [plural] Trait aux { $player }.
   *[singular] Trait à { $player }.
  }
rules-ex-to-move-check = { $number ->
    [plural] Trait aux { $player }, en échec.
   *[singular] Trait à { $player }, en échec.
  }
rules-ex-piece-on = { $piece } en { $cell } :
rules-ex-no-answer = ses coups ne peuvent pas être montrés ici ({ $error }).
rules-ex-no-move = aucun coup d'ici.
rules-ex-moves = { $cells ->
    [one] { $cells } case où aller
   *[other] { $cells } cases où aller
  }, { $captures ->
    [0] aucune prise.
    [one] { $captures } coup prend.
   *[other] { $captures } coups prennent.
  }
rules-ex-as-if = { $number ->
    [plural] (comme si les { $player } avaient le trait)
   *[singular] (comme si { $player } avait le trait)
  }

## Comptes et profils

account-title = Compte
account-tagline = Votre compte
account-signup = Créer un compte
account-login = Se connecter
account-logout = Se déconnecter
account-name = Nom
account-password = Mot de passe
account-logged-in = Connecté en tant que { $name }
account-profile = Votre profil
profile-title = Joueur
profile-tagline = Joueur
profile-ratings = Classements
profile-results = Victoires, nulles et défaites
profile-games = Parties
profile-export = Télécharger toutes ses parties (fichier de parties)
profile-graph = le classement après chaque partie classée
profile-no-ratings = Pas encore de partie classée.
profile-no-games = Pas encore de partie terminée.
profile-rated-games = { $games ->
    [one] une partie classée
   *[other] { $games } parties classées
  }
# un libellé avant sa valeur, comme « blitz : 1500 » (espace insécable avant le deux-points)
profile-label = { $text } :
profile-wdl = { $win ->
    [one] { $win } gagnée
   *[other] { $win } gagnées
  }, { $draw ->
    [one] { $draw } nulle
   *[other] { $draw } nulles
  }, { $loss ->
    [one] { $loss } perdue
   *[other] { $loss } perdues
  }
profile-rated = classée
profile-casual = amicale
profile-result-win = gagnée
profile-result-draw = nulle
profile-result-loss = perdue
profile-result-playing = en cours
# $names: the other players of a game, joined as the language joins a list
profile-against = contre { $names }
profile-opponent-computer = l'ordinateur (niveau { $level })
speed-bullet = bullet
speed-blitz = blitz
speed-rapid = rapide
speed-classical = classique
rating-change-title = Classements ({ $speed })
rating-change-line = { $name } : { $before } → { $after } ({ $change })
rating-change-deleted = un compte supprimé
rating-provisional = ? : un classement provisoire, après peu de parties classées
ratings-title = Classements · myrmidon
ratings-title-plain = Classements
ratings-tagline = Les meilleurs joueurs
ratings-heading = Classements : { $game }
ratings-games = Jeux
ratings-rank = n°
ratings-player = Joueur
ratings-rating = Classement
ratings-games-played = Parties classées
ratings-none = Pas encore de partie classée de ce jeu.
ratings-unknown-game = Pas de jeu « { $game } ».
ratings-note = Les classements viennent des parties classées entre joueurs (Glicko-2), un par jeu et par cadence ; un point d'interrogation : un classement encore provisoire. Une partie contre l'ordinateur ne change jamais le classement d'un joueur : elle classe le niveau de l'ordinateur.
ratings-levels = Les niveaux de l'ordinateur
ratings-levels-games = Parties contre des joueurs
header-ratings = Classements
profile-rating-list = le classement du jeu

## The analysis board (web/analysis.html, web/analysis.js)

an-page-title = Analyse · myrmidon
an-page-title-game = Analyse · { $game } · myrmidon
an-engine-disconnected = moteur déconnecté
an-flip = Retourner
an-game = Jeu
an-position = Chaîne de position
    .placeholder = une chaîne de position
an-load = Charger
an-start-position = Position de départ
an-copy-position = Copier la position
an-copy-press = Appuyez sur Ctrl+C
an-engine = Moteur
an-evaluation = L'évaluation
an-start = Lancer
an-stop = Arrêter
an-lines = Lignes
an-time = Temps
an-best-lines = Les meilleures lignes du moteur
an-search-log = Journal de la recherche
an-log-depth = profondeur
an-log-score = score
an-log-time = temps
an-log-line = ligne
an-graph-title = L'évaluation au fil de la partie
an-nav-last = Dernière position
    .title = Dernière position (Fin)
an-moves-hint = Jouez des coups sur le plateau pour explorer une ligne ; le moteur suit la position affichée.
an-moves-none-game = Aucun coup dans cette partie.
an-moves-none = Aucun coup pour l'instant : jouez-en un sur le plateau.
an-scores-two = { $number ->
    [plural] Scores en pions du côté des { $first } : + est bon pour les { $first }, − pour les { $second } ; #n : un gain en n coups.
   *[singular] Scores en pions du côté de { $first } : + est bon pour { $first }, − pour { $second } ; #n : un gain en n coups.
  }
an-scores-mover = Scores en pions pour le joueur au trait ; #n : un gain en n coups.
an-scores-mover-named = Scores en pions pour le joueur au trait ({ $player }) ; #n : un gain en n coups.
an-engine-lost = La connexion au moteur est perdue ; appuyez de nouveau sur Lancer.
an-engine-refused = Le moteur a refusé : { $error }
an-engine-browser = Le moteur réfléchit dans ce navigateur.
an-engine-server = Le moteur réfléchit sur le serveur.
an-stats = profondeur { $depth } · { $nodes } nœuds · { $knps } kn/s · { $seconds } s
an-searching = recherche…
an-done-best = terminé, meilleur coup { $move }
an-done-none = terminé : aucun coup à jouer ici
an-over = La partie est finie dans cette position : rien à analyser.
an-press-start = Appuyez sur Lancer pour que le moteur réfléchisse à cette position.
an-graph-lost = la connexion au moteur est perdue
an-graph-end = la fin
an-graph-start = le départ
an-graph-after = après le coup { $n } ({ $move })
an-graph-label = { $number ->
    [plural] L'évaluation des { $player } après chaque coup ; cliquez pour aller à un coup
   *[singular] L'évaluation de { $player } après chaque coup ; cliquez pour aller à un coup
  }
an-graph-failed = Le graphique n'a pas pu être calculé : { $error }
an-graph-running = Évaluation des positions… { $done } sur { $total }
an-graph-done = { $number ->
    [plural] Du côté des { $player }, en pions (bornés à ±10 ; un mat au bord), à 0,1 s par position. Cliquez pour aller à un coup.
   *[singular] Du côté de { $player }, en pions (bornés à ±10 ; un mat au bord), à 0,1 s par position. Cliquez pour aller à un coup.
  }
an-graph-three = Pas de graphique d'évaluation pour une partie à trois : un score n'y est que le point de vue d'un joueur. Les lignes du moteur ci-dessus fonctionnent toujours.
an-status-start = Départ · { $status }
an-status-after = Après le coup { $n }, { $move } · { $status }
an-line-after = Votre ligne après le coup { $n } de la partie
an-move-failed = Impossible d'afficher le coup { $n } : { $error }
an-move-refused = Le coup { $move } a été refusé : { $error }
an-line-refused = La ligne de l'adresse a été refusée : { $error }
an-position-failed = Impossible de charger cette position : { $error }
an-game-failed = Impossible de charger la partie { $id } : { $error }
an-games-failed = Impossible de charger les jeux : { $error }
an-source-game = Partie
an-source-detail = { " " }: { $players }, { $n ->
    [one] { $n } coup
   *[other] { $n } coups
  }
an-source-going-on = en cours
