"""Run-length rows, the board part of every position string: a number is that many empty cells,
anything else a piece written in a fixed number of characters."""


def read_row(row, piece_len):
    """The pieces of one row as (place, text), counting places from 0, and the row's length in
    cells."""
    pieces, place, i = [], 0, 0
    while i < len(row):
        j = i
        while j < len(row) and row[j].isdigit():
            j += 1
        if j > i:
            place += int(row[i:j])
            i = j
        else:
            pieces.append((place, row[i:i + piece_len]))
            place += 1
            i += piece_len
    return pieces, place


def write_row(cells):
    """One row from its cells' texts (None for an empty cell), runs of empty cells merged."""
    out, empty = "", 0
    for text in cells:
        if text is None:
            empty += 1
        else:
            if empty:
                out += str(empty)
                empty = 0
            out += text
    if empty:
        out += str(empty)
    return out
