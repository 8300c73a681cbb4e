//! The analysis board's engine: `GET /api/analysis` (a WebSocket). The client asks for the
//! analysis of a position (the engine's lines, streamed as it deepens) or for the evaluation of
//! every position of a game (the evaluation graph); docs/api.md has the messages.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::State;
use axum::response::Response;
use myrmidon_engine::{new_searcher, Control, Limits, Options, PlayerSpec, Report, Score};
use myrmidon_rules::{registry, DynRecord};
use serde::Deserialize;
use serde_json::Value;
use tokio::sync::{mpsc, Notify};

use crate::api::settings_of;
use crate::engines::Work;
use crate::limits::{
    close_too_big, message_size, over_frame_limit, too_many, ClientIp, MessageRate, FRAME_LIMIT,
};
use crate::live::App;
use crate::views::{AnalysisMessage, ScoreView};

/// The largest message a client may send (a larger one closes the socket, with close code
/// 1009).
pub const MESSAGE_LIMIT: usize = 16 * 1024;
/// `analyse`: the default and the longest search.
const ANALYSE_DEFAULT_MS: u64 = 30_000;
const ANALYSE_MAX_MS: u64 = 300_000;
/// `evals`: the default and the longest search of each position.
const EVALS_DEFAULT_MS: u64 = 100;
const EVALS_MAX_MS: u64 = 2_000;
/// Positions an `evals` request may ask for, at most.
const EVALS_MAX_PLIES: usize = 2_000;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Request {
    op: String,
    #[serde(default)]
    id: Option<u64>,
    #[serde(default)]
    game: Option<String>,
    #[serde(default)]
    position: Option<String>,
    #[serde(default)]
    settings: serde_json::Map<String, Value>,
    #[serde(default)]
    moves: Vec<String>,
    #[serde(default)]
    movetime: Option<u64>,
    #[serde(default)]
    multipv: Option<u32>,
}

/// A running job: stopped by a new request, `stop`, or the socket closing.
#[derive(Default)]
struct Job {
    cancel: AtomicBool,
    /// Wakes the job while it waits for an engine.
    stopped: Notify,
    current: Mutex<Option<Control>>,
}

impl Job {
    fn stop(&self) {
        self.cancel.store(true, Ordering::Relaxed);
        self.stopped.notify_one();
        if let Some(control) = self.current.lock().expect("not poisoned").as_ref() {
            control.stop();
        }
    }

    fn cancelled(&self) -> bool {
        self.cancel.load(Ordering::Relaxed)
    }
}

/// `GET /api/analysis`.
pub async fn analysis(
    State(app): State<Arc<App>>,
    ClientIp(ip): ClientIp,
    upgrade: WebSocketUpgrade,
) -> Response {
    let Some(permit) = app.limiter.socket(ip) else {
        return too_many("websockets", Duration::from_secs(10));
    };
    upgrade
        .max_message_size(FRAME_LIMIT)
        .max_frame_size(FRAME_LIMIT)
        .on_upgrade(move |socket| async move {
            let _permit = permit;
            serve(app, socket).await
        })
}

fn error(id: Option<u64>, text: impl Into<String>) -> AnalysisMessage {
    AnalysisMessage::Error {
        id,
        error: text.into(),
    }
}

async fn serve(app: Arc<App>, mut socket: WebSocket) {
    let (tx, mut rx) = mpsc::unbounded_channel::<AnalysisMessage>();
    let mut job: Option<Arc<Job>> = None;
    let mut rate = MessageRate::new(&app.limiter.limits);
    loop {
        tokio::select! {
            out = rx.recv() => {
                let Some(out) = out else { break };
                let text = serde_json::to_string(&out).expect("a message serialises");
                if socket.send(Message::Text(text.into())).await.is_err() {
                    break;
                }
            }
            incoming = socket.recv() => {
                let text = match incoming {
                    Some(Ok(message)) if message_size(&message) > MESSAGE_LIMIT => {
                        close_too_big(&mut socket, MESSAGE_LIMIT).await;
                        break;
                    }
                    Some(Err(e)) => {
                        if over_frame_limit(e) {
                            close_too_big(&mut socket, MESSAGE_LIMIT).await;
                        }
                        break;
                    }
                    Some(Ok(Message::Text(_))) if !rate.allow() => break,
                    Some(Ok(Message::Text(text))) => text,
                    Some(Ok(Message::Binary(_))) => {
                        let _ = tx.send(error(None, "messages are JSON text"));
                        continue;
                    }
                    Some(Ok(_)) => continue,
                    None => break,
                };
                let req: Request = match serde_json::from_str(text.as_str()) {
                    Ok(r) => r,
                    Err(e) => {
                        let _ = tx.send(error(None, format!("not the JSON expected: {e}")));
                        continue;
                    }
                };
                if let Some(old) = job.take() {
                    old.stop();
                }
                match req.op.as_str() {
                    "stop" => {}
                    "analyse" | "evals" => match prepare(&req) {
                        Ok(record) => {
                            let new = Arc::new(Job::default());
                            job = Some(new.clone());
                            tokio::spawn(run(app.clone(), new, req, record, tx.clone()));
                        }
                        Err(e) => {
                            let _ = tx.send(error(req.id, e));
                        }
                    },
                    other => {
                        let _ = tx.send(error(
                            req.id,
                            format!("op: {other:?} is not one of analyse, evals, stop"),
                        ));
                    }
                }
            }
        }
    }
    if let Some(job) = job {
        job.stop();
    }
}

/// The record a request starts from (its position or start, before its moves).
fn prepare(req: &Request) -> Result<Box<dyn DynRecord>, String> {
    let id = req
        .game
        .as_deref()
        .ok_or("game: missing (the game id, as \"ackenhead\")")?;
    let settings = settings_of(req.settings.clone()).map_err(|e| e.1.to_string())?;
    let record = registry::new_record(id, req.position.as_deref(), &settings)?;
    if req.op == "evals" && req.moves.len() > EVALS_MAX_PLIES {
        return Err(format!(
            "moves: at most {EVALS_MAX_PLIES} for an evaluation graph"
        ));
    }
    if let Some(pv) = req.multipv {
        if !(1..=5).contains(&pv) {
            return Err(format!("multipv: {pv} is not from 1 to 5"));
        }
    }
    // Every move must be legal; the analysis starts after the last one.
    registry::play_moves(record.clone_box().as_mut(), &req.moves)?;
    Ok(record)
}

async fn run(
    app: Arc<App>,
    job: Arc<Job>,
    req: Request,
    record: Box<dyn DynRecord>,
    tx: mpsc::UnboundedSender<AnalysisMessage>,
) {
    // A slot of the engine pool, where analyses never take the last slot (it is for the
    // computer's moves in games). A job stopped while it waits leaves the queue.
    let permit = tokio::select! {
        permit = app.engines.acquire(Work::Analysis) => Some(permit),
        () = job.stopped.notified() => None,
    };
    let permit = match permit {
        Some(Ok(permit)) if !job.cancelled() => permit,
        Some(Err(e)) => {
            let _ = tx.send(error(req.id, e.to_string()));
            return;
        }
        _ => {
            let done = if req.op == "evals" {
                AnalysisMessage::EvalsDone { id: req.id }
            } else {
                AnalysisMessage::Done {
                    id: req.id,
                    best: None,
                    outcome: None,
                }
            };
            let _ = tx.send(done);
            return;
        }
    };
    let id = req.id;
    let failed = tx.clone();
    let ran = permit
        .run(move || {
            if req.op == "evals" {
                evals(&job, &req, record, &tx);
            } else {
                analyse(&job, &req, record, &tx);
            }
        })
        .await;
    if let Err(e) = ran {
        let _ = failed.send(error(id, e.to_string()));
    }
}

fn searcher_for(
    record: &dyn DynRecord,
    multipv: u32,
) -> Result<Box<dyn myrmidon_engine::DynSearcher>, String> {
    let spec: PlayerSpec = "level:8".parse().map_err(|e| format!("{e}"))?;
    let options = Options {
        multipv,
        hash_mb: Work::Analysis.hash_mb(),
        ..Options::default()
    };
    new_searcher(record.info().id, &spec, &options).map_err(|e| e.to_string())
}

fn analyse(
    job: &Job,
    req: &Request,
    mut record: Box<dyn DynRecord>,
    tx: &mpsc::UnboundedSender<AnalysisMessage>,
) {
    for text in &req.moves {
        if record.play(text).is_err() {
            return; // checked by `prepare`
        }
    }
    let ms = req
        .movetime
        .unwrap_or(ANALYSE_DEFAULT_MS)
        .clamp(1, ANALYSE_MAX_MS);
    let mut searcher = match searcher_for(&*record, req.multipv.unwrap_or(1)) {
        Ok(s) => s,
        Err(e) => {
            let _ = tx.send(error(req.id, e));
            return;
        }
    };
    let limits = Limits::movetime(Duration::from_millis(ms));
    let control = Control::new(&limits, record.to_move());
    *job.current.lock().expect("not poisoned") = Some(control.clone());
    if job.cancelled() {
        control.stop();
    }
    let best = searcher.search(&*record, &limits, &control, &mut |r: &Report| {
        let ms = r.time.as_millis() as u64;
        let _ = tx.send(AnalysisMessage::Info {
            id: req.id,
            depth: r.depth,
            seldepth: r.seldepth,
            multipv: r.multipv,
            score: ScoreView::of(r.score),
            first: ScoreView::first(r.score, &*record),
            nodes: r.nodes,
            nps: r.nodes * 1000 / ms.max(1),
            time_ms: ms,
            pv: r.pv.clone(),
        });
    });
    let outcome = record
        .result()
        .map(|r| r.describe(record.player_names(), record.info().players_number));
    match best {
        Ok(best) => {
            let _ = tx.send(AnalysisMessage::Done {
                id: req.id,
                best,
                outcome,
            });
        }
        Err(e) => {
            let _ = tx.send(error(req.id, e.to_string()));
        }
    }
}

fn evals(
    job: &Job,
    req: &Request,
    mut record: Box<dyn DynRecord>,
    tx: &mpsc::UnboundedSender<AnalysisMessage>,
) {
    let ms = req
        .movetime
        .unwrap_or(EVALS_DEFAULT_MS)
        .clamp(1, EVALS_MAX_MS);
    let mut searcher = match searcher_for(&*record, 1) {
        Ok(s) => s,
        Err(e) => {
            let _ = tx.send(error(req.id, e));
            return;
        }
    };
    for ply in 0..=req.moves.len() {
        if job.cancelled() {
            break;
        }
        if ply > 0 && record.play(&req.moves[ply - 1]).is_err() {
            break; // checked by `prepare`
        }
        if let Some(result) = record.result() {
            let _ = tx.send(AnalysisMessage::Eval {
                id: req.id,
                ply,
                score: None,
                first: None,
                outcome: Some(result.describe(record.player_names(), record.info().players_number)),
            });
            break;
        }
        let limits = Limits::movetime(Duration::from_millis(ms));
        let control = Control::new(&limits, record.to_move());
        *job.current.lock().expect("not poisoned") = Some(control.clone());
        if job.cancelled() {
            break;
        }
        let mut last: Option<Score> = None;
        let searched = searcher.search(&*record, &limits, &control, &mut |r: &Report| {
            if r.multipv <= 1 {
                last = Some(r.score);
            }
        });
        if let Err(e) = searched {
            let _ = tx.send(error(req.id, e.to_string()));
            break;
        }
        let _ = tx.send(AnalysisMessage::Eval {
            id: req.id,
            ply,
            score: last.map(ScoreView::of),
            first: last.and_then(|s| ScoreView::first(s, &*record)),
            outcome: None,
        });
    }
    let _ = tx.send(AnalysisMessage::EvalsDone { id: req.id });
}
