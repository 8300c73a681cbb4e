//! The game as the API shows it: its state (board, legal moves with their cells, clocks,
//! offers) built from the record in memory.

use crate::store::now;
use myrmidon_rules::{registry, DynRecord, GameResult, MoveDesc, PieceView};
use serde_json::{json, Value};

use crate::store::GameRow;

use super::{Live, Refusal};

impl Live {
    /// The game's state as the API gives it.
    pub fn state(&self) -> Value {
        let mut state = state_of(
            &self.row,
            &*self.record,
            self.version,
            self.thinking || self.elsewhere,
        );
        let seats = |mask: u8| -> Vec<u8> {
            (0..self.seats.len() as u8)
                .filter(|s| mask & (1 << s) != 0)
                .collect()
        };
        state["draw_offer"] = json!(self.row.draw_offer);
        state["takeback_offer"] = json!(self.row.takeback_offer);
        state["takeback_agreed"] = json!(seats(self.row.takeback_yes));
        state["takeback_declined"] = json!(self.row.takeback_declined);
        state["rematch_offers"] = json!(seats(self.row.rematch_offers));
        state["draw_declined"] = json!(self.draw_declined);
        state["rematch"] = json!(self.row.rematch);
        state["open_seats"] = json!(self.open_seats());
        state["public"] = json!(self.row.public);
        state["clock"] = match &self.clock {
            Some(clock) => clock.json(self.seat_to_move(), now()),
            None => Value::Null,
        };
        state
    }

    /// The state at an earlier ply (`at` moves played), read only.
    pub fn state_at(&self, at: usize) -> Result<Value, Refusal> {
        let played = self.record.history().len();
        if at > played {
            return Err(Refusal::Bad(format!(
                "at={at}: the game has {played} moves so far"
            )));
        }
        let mut record = self.record.clone_box();
        while record.history().len() > at {
            if !record.undo() {
                break;
            }
        }
        let mut state = state_of(&self.row, &*record, self.version, false);
        state["at"] = json!(at);
        Ok(state)
    }
}

fn cells_json(from: Option<u16>, to: Option<u16>, captures: &[u16]) -> Value {
    json!({"from": from, "to": to, "captures": captures})
}

/// The pieces of a position, one entry per cell: `null` or `{"owner", "kind"}`.
pub fn board_of(record: &dyn DynRecord) -> Vec<Value> {
    (0..record.info().geometry.cell_count())
        .map(|c| match record.piece_at(c as u16) {
            Some(p) => json!({"owner": p.owner, "kind": p.kind.to_string()}),
            None => Value::Null,
        })
        .collect()
}

/// Legal moves with the cells they touch.
pub fn legal_json(legal: &[MoveDesc]) -> Vec<Value> {
    legal
        .iter()
        .map(|m| {
            let mut v = cells_json(m.cells.from, m.cells.to, &m.cells.captures);
            v["text"] = json!(m.text);
            v["promotion"] = json!(m.promotion.map(String::from));
            v["pieces_moved"] = json!(m.pieces_moved);
            v
        })
        .collect()
}

/// For each seat, the kinds of its pieces on the board at the start and not now (a rough view
/// of the material: a promoted pawn shows as lost, a Worker back through the Ponte as not).
pub fn captured(record: &dyn DynRecord) -> Vec<Vec<String>> {
    let info = record.info();
    let players = record.player_names().len();
    let mut out = vec![Vec::new(); players];
    let Ok(start) = registry::find(info.id)
        .map_err(|e| e.to_string())
        .and_then(|g| {
            g.new_game_at(&record.start_string())
                .map_err(|e| e.to_string())
        })
    else {
        return out;
    };
    let count = |r: &dyn DynRecord, owner: u8, kind: char| {
        (0..info.geometry.cell_count())
            .filter(|&c| r.piece_at(c as u16) == Some(PieceView { owner, kind }))
            .count()
    };
    for (owner, lost) in out.iter_mut().enumerate() {
        for kind in info.pieces {
            let gone = count(&*start, owner as u8, kind.letter).saturating_sub(count(
                record,
                owner as u8,
                kind.letter,
            ));
            lost.extend(std::iter::repeat_n(kind.letter.to_string(), gone));
        }
    }
    out
}

/// How a game ended, for people and programs.
pub fn outcome_json(result: &GameResult, players: &[&str]) -> Value {
    json!({
        "winner": result.outcome.winner(),
        "reason": result.outcome.reason().id,
        "text": result.describe(players),
    })
}

pub fn state_of(row: &GameRow, record: &dyn DynRecord, version: u64, thinking: bool) -> Value {
    let info = record.info();
    let players = record.player_names();
    let result = record.result();
    let over = result.is_some();
    let history = record.history();
    let legal = if over {
        Vec::new()
    } else {
        record.legal_moves()
    };
    let board = board_of(record);
    let captured = captured(record);
    let outcome = result.as_ref().map(|r| outcome_json(r, players));
    let settings: serde_json::Map<String, Value> = row
        .settings
        .iter()
        .map(|(k, v)| (k.clone(), Value::String(v.clone())))
        .collect();
    json!({
        "id": row.id,
        "game": info.id,
        "players": players,
        "seats": row.seats,
        "settings": settings,
        "start": record.start_string(),
        "first_move_number": myrmidon_rules::pgn::first_move_number(record),
        "position": record.position_string(),
        "moves": history.iter().map(|m| m.text.clone()).collect::<Vec<_>>(),
        "history": history.iter().map(|m| {
            let mut v = cells_json(m.cells.from, m.cells.to, &m.cells.captures);
            v["player"] = json!(m.player);
            v["text"] = json!(m.text);
            v
        }).collect::<Vec<_>>(),
        "legal": legal.iter().map(|m| m.text.clone()).collect::<Vec<_>>(),
        "legal_cells": legal_json(&legal),
        "to_move": if over { None } else { Some(record.to_move()) },
        "board": board,
        "captured": captured,
        "check": !over && record.in_check(),
        "check_cells": if over { Vec::new() } else { record.check_cells() },
        "info": record.info_lines(),
        "eliminated": record.eliminations().iter().map(|e| json!({
            "seat": e.player,
            "reason": e.reason.id,
            "text": e.describe(players),
        })).collect::<Vec<_>>(),
        "outcome": outcome,
        "thinking": thinking,
        "version": version,
    })
}
