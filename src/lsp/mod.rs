//! `grail lsp`: a language server over standard input and output, built on
//! `lsp-server` and `lsp-types`. Owns the message loop and the open
//! documents; [`transport`] reads and writes the messages; [`analysis`] indexes a document, [`features`] answers
//! questions about a name, [`outline`] about a whole document. Every change
//! re-runs the checker (whole file; fast enough, see docs/editing.md) and
//! publishes its diagnostics.

// lsp-types keys its edits by `Uri`, which caches its parse in a `Cell`;
// the cache never changes a key's hash or equality.
#![allow(clippy::mutable_key_type)]

pub mod analysis;
pub mod decls;
pub mod features;
pub mod outline;
pub mod text;
pub mod transport;

use analysis::Analysis;
use lsp_server::{Connection, Message, Notification, Request, RequestId, Response};
use lsp_types::notification::Notification as _;
use lsp_types::request::Request as _;
use lsp_types::*;
use std::collections::HashMap;

struct Doc {
    text: String,
    version: i32,
    analysis: Analysis,
    /// Why the text is not kept (too large, or too many ranged changes at
    /// once): the document then reads as empty, its one diagnostic says
    /// why, and ranged changes wait for a whole text.
    refused: Option<String>,
}

/// The longest document kept: the most `grail check` reads of a file.
pub const MAX_DOCUMENT: usize = crate::load::MAX_RULES_FILE as usize;

/// The most ranged changes one `didChange` may carry (the server asks for
/// whole texts; each ranged change re-reads the document).
pub const MAX_RANGED_CHANGES: usize = 100;

struct Server {
    conn: Connection,
    docs: HashMap<Uri, Doc>,
}

/// The capabilities the server offers.
fn capabilities() -> ServerCapabilities {
    ServerCapabilities {
        text_document_sync: Some(TextDocumentSyncCapability::Kind(TextDocumentSyncKind::FULL)),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        definition_provider: Some(OneOf::Left(true)),
        references_provider: Some(OneOf::Left(true)),
        rename_provider: Some(OneOf::Left(true)),
        completion_provider: Some(CompletionOptions {
            trigger_characters: Some(vec![".".into()]),
            ..Default::default()
        }),
        document_symbol_provider: Some(OneOf::Left(true)),
        folding_range_provider: Some(FoldingRangeProviderCapability::Simple(true)),
        document_formatting_provider: Some(OneOf::Left(true)),
        semantic_tokens_provider: Some(SemanticTokensServerCapabilities::SemanticTokensOptions(
            SemanticTokensOptions {
                legend: SemanticTokensLegend {
                    token_types: outline::TOKEN_TYPES.to_vec(),
                    token_modifiers: Vec::new(),
                },
                full: Some(SemanticTokensFullOptions::Bool(true)),
                range: None,
                work_done_progress_options: Default::default(),
            },
        )),
        ..Default::default()
    }
}

/// Run the server until the client says `exit`; returns the exit code.
pub fn run() -> u8 {
    let (conn, io) = transport::stdio();
    let caps = match serde_json::to_value(capabilities()) {
        Ok(c) => c,
        Err(_) => return 1,
    };
    if let Err(e) = conn.initialize(caps) {
        return match io.finish(conn) {
            Err(why) => {
                eprintln!("grail lsp: {why}");
                1
            }
            Ok(()) => {
                eprintln!("grail lsp: {e}");
                1
            }
        };
    }
    let mut server = Server {
        conn,
        docs: HashMap::new(),
    };
    let code = server.main_loop();
    match io.finish(server.conn) {
        Err(why) => {
            eprintln!("grail lsp: {why}");
            1
        }
        Ok(()) => code,
    }
}

impl Server {
    fn main_loop(&mut self) -> u8 {
        while let Ok(msg) = self.conn.receiver.recv() {
            match msg {
                Message::Request(req) => {
                    match self.conn.handle_shutdown(&req) {
                        Ok(true) => return 0,
                        Ok(false) => {}
                        Err(_) => return 1,
                    }
                    let resp = self.request(req);
                    if self.conn.sender.send(Message::Response(resp)).is_err() {
                        return 1;
                    }
                }
                Message::Notification(n) => {
                    if n.method == notification::Exit::METHOD {
                        return 0;
                    }
                    let method = n.method.clone();
                    let done = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        self.notification(n)
                    }));
                    if done.is_err() {
                        eprintln!("grail lsp: failed on `{method}`");
                    }
                }
                Message::Response(_) => {}
            }
        }
        0
    }

    fn text_of(&self, uri: &Uri) -> Option<String> {
        self.docs.get(uri).map(|d| d.text.clone())
    }

    fn analyse(&self, uri: &Uri, text: &str) -> Analysis {
        Analysis::new(uri, text, &|u| self.text_of(u))
    }

    /// Open documents that are variants built on `uri`.
    fn dependents(&self, uri: &Uri) -> Vec<Uri> {
        self.docs
            .iter()
            .filter(|(u, d)| {
                *u != uri && d.analysis.files.iter().any(|f| f.uri.as_ref() == Some(uri))
            })
            .map(|(u, _)| u.clone())
            .collect()
    }

    fn set_text(&mut self, uri: Uri, text: String, version: i32, refused: Option<String>) {
        let refused = refused.or_else(|| {
            (text.len() > MAX_DOCUMENT).then(|| {
                format!(
                    "this file has {} bytes, more than {MAX_DOCUMENT} (16 MiB), the most grail reads: it is not checked",
                    text.len()
                )
            })
        });
        let text = if refused.is_some() {
            String::new()
        } else {
            text
        };
        let analysis = self.analyse(&uri, &text);
        self.docs.insert(
            uri.clone(),
            Doc {
                text,
                version,
                analysis,
                refused,
            },
        );
        self.publish(&uri);
        for dep in self.dependents(&uri) {
            let text = self.docs[&dep].text.clone();
            let analysis = self.analyse(&dep, &text);
            if let Some(d) = self.docs.get_mut(&dep) {
                d.analysis = analysis;
            }
            self.publish(&dep);
        }
    }

    fn publish(&self, uri: &Uri) {
        let Some(doc) = self.docs.get(uri) else {
            return;
        };
        let diagnostics = match &doc.refused {
            Some(why) => vec![lsp_types::Diagnostic {
                range: Range::default(),
                severity: Some(DiagnosticSeverity::ERROR),
                source: Some("grail".into()),
                message: why.clone(),
                ..Default::default()
            }],
            None => outline::diagnostics(&doc.analysis),
        };
        let params = PublishDiagnosticsParams {
            uri: uri.clone(),
            diagnostics,
            version: Some(doc.version),
        };
        self.notify::<notification::PublishDiagnostics>(params);
    }

    fn notify<N: notification::Notification>(&self, params: N::Params) {
        let n = Notification::new(N::METHOD.to_string(), params);
        let _ = self.conn.sender.send(Message::Notification(n));
    }

    /// A notification; one that cannot be followed is said on standard
    /// error (a notification has no answer), and the documents stay.
    fn notification(&mut self, n: Notification) {
        let method = n.method.clone();
        if let Err(why) = self.follow(n) {
            eprintln!(
                "grail lsp: ignored `{}`: {}",
                crate::sanitize::excerpt(&method, 100),
                crate::sanitize::excerpt(&why, 300)
            );
        }
    }

    fn follow(&mut self, n: Notification) -> Result<(), String> {
        let read = |e: serde_json::Error| e.to_string();
        match n.method.as_str() {
            notification::DidOpenTextDocument::METHOD => {
                let p: DidOpenTextDocumentParams =
                    serde_json::from_value(n.params).map_err(read)?;
                let d = p.text_document;
                self.set_text(d.uri, d.text, d.version, None);
            }
            notification::DidChangeTextDocument::METHOD => {
                let p: DidChangeTextDocumentParams =
                    serde_json::from_value(n.params).map_err(read)?;
                self.change(p)?;
            }
            notification::DidCloseTextDocument::METHOD => {
                let p: DidCloseTextDocumentParams =
                    serde_json::from_value(n.params).map_err(read)?;
                self.docs.remove(&p.text_document.uri);
                self.notify::<notification::PublishDiagnostics>(PublishDiagnosticsParams {
                    uri: p.text_document.uri,
                    diagnostics: Vec::new(),
                    version: None,
                });
            }
            _ => {}
        }
        Ok(())
    }

    /// A document's changes, in order: a whole text replaces it, a ranged
    /// change edits it (at most [`MAX_RANGED_CHANGES`] of those at once).
    fn change(&mut self, p: DidChangeTextDocumentParams) -> Result<(), String> {
        let uri = p.text_document.uri;
        let Some(doc) = self.docs.get(&uri) else {
            return Err(format!("`{}` is not open", uri.as_str()));
        };
        let ranged = p
            .content_changes
            .iter()
            .filter(|c| c.range.is_some())
            .count();
        let mut refused = doc.refused.clone();
        let mut text = doc.text.clone();
        if ranged > MAX_RANGED_CHANGES {
            refused = Some(format!(
                "grail lost this file's text: an editor sent {ranged} ranged changes at once, more than {MAX_RANGED_CHANGES} (grail asks for whole texts); reopen the file"
            ));
        } else {
            for c in p.content_changes {
                match c.range {
                    None => (text, refused) = (c.text, None),
                    // a ranged change to a text not kept waits for a whole one
                    Some(_) if refused.is_some() => {}
                    Some(r) => {
                        let lines = text::LineIndex::new(&text);
                        let s = lines.offset(&text, r.start);
                        let e = lines.offset(&text, r.end).max(s);
                        text.replace_range(s..e, &c.text);
                        if text.len() > MAX_DOCUMENT {
                            break;
                        }
                    }
                }
            }
        }
        self.set_text(uri, text, p.text_document.version, refused);
        Ok(())
    }

    fn request(&mut self, req: Request) -> Response {
        let id = req.id.clone();
        let method = req.method.clone();
        // A bug in one feature answers that request with an error; the
        // server and its documents live on.
        let answer = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.answer(req)));
        match answer {
            Ok(Ok(v)) => Response::new_ok(id, v),
            Ok(Err((code, msg))) => Response::new_err(id, code, msg),
            Err(_) => Response::new_err(id, -32603, format!("grail lsp failed on `{method}`")),
        }
    }

    fn doc(&self, uri: &Uri) -> Result<&Analysis, (i32, String)> {
        self.docs
            .get(uri)
            .map(|d| &d.analysis)
            .ok_or((-32602, format!("`{}` is not open", uri.as_str())))
    }

    /// One arm per request the server answers; the longer answers are the
    /// methods below.
    fn answer(&mut self, req: Request) -> Reply {
        let _: &RequestId = &req.id;
        match req.method.as_str() {
            request::HoverRequest::METHOD => {
                let p: HoverParams = params(req)?;
                let tp = p.text_document_position_params;
                json(features::hover(
                    self.doc(&tp.text_document.uri)?,
                    tp.position,
                ))
            }
            request::GotoDefinition::METHOD => {
                let p: GotoDefinitionParams = params(req)?;
                let tp = p.text_document_position_params;
                json(
                    features::definition(self.doc(&tp.text_document.uri)?, tp.position)
                        .map(GotoDefinitionResponse::Scalar),
                )
            }
            request::References::METHOD => self.references(params(req)?),
            request::Rename::METHOD => self.rename(params(req)?),
            request::Completion::METHOD => {
                let p: CompletionParams = params(req)?;
                let tp = p.text_document_position;
                json(CompletionResponse::Array(features::completion(
                    self.doc(&tp.text_document.uri)?,
                    tp.position,
                )))
            }
            request::DocumentSymbolRequest::METHOD => {
                let p: DocumentSymbolParams = params(req)?;
                json(DocumentSymbolResponse::Nested(outline::symbols(
                    self.doc(&p.text_document.uri)?,
                )))
            }
            request::FoldingRangeRequest::METHOD => {
                let p: FoldingRangeParams = params(req)?;
                json(outline::folding(self.doc(&p.text_document.uri)?))
            }
            request::SemanticTokensFullRequest::METHOD => {
                let p: SemanticTokensParams = params(req)?;
                json(SemanticTokensResult::Tokens(SemanticTokens {
                    result_id: None,
                    data: outline::semantic_tokens(self.doc(&p.text_document.uri)?),
                }))
            }
            request::Formatting::METHOD => self.formatting(params(req)?),
            request::Initialize::METHOD => {
                Err((-32600, "the server is already initialized".into()))
            }
            _ => Err((-32601, format!("`{}` is not supported", req.method))),
        }
    }

    /// Every use of the top-level name under the cursor, in this document,
    /// its bases and the open variants built on it, sorted.
    fn references(&self, p: ReferenceParams) -> Reply {
        let tp = p.text_document_position;
        let uri = tp.text_document.uri;
        let a = self.doc(&uri)?;
        let Some(name) = features::global_at(a, tp.position) else {
            return json(Vec::<Location>::new());
        };
        let edits = self.rename_set(&uri, &name, &name)?;
        let mut locs: Vec<Location> = edits
            .into_iter()
            .flat_map(|(u, es)| {
                es.into_iter()
                    .map(move |e| Location::new(u.clone(), e.range))
            })
            .collect();
        if !p.context.include_declaration {
            let decl_spans: Vec<Location> = a
                .decls_named(&name)
                .iter()
                .filter_map(|d| a.location(d.span))
                .map(|(u, r)| Location::new(u, r))
                .collect();
            locs.retain(|l| !decl_spans.contains(l));
        }
        locs.sort_by_key(|l| {
            (
                l.uri.as_str().to_string(),
                l.range.start.line,
                l.range.start.character,
            )
        });
        json(locs)
    }

    /// The edits renaming the top-level name under the cursor, if the new
    /// name is one.
    fn rename(&self, p: RenameParams) -> Reply {
        let tp = p.text_document_position;
        if !features::valid_name(&p.new_name) {
            return Err((
                -32602,
                format!("`{}` is not a name (or is a keyword)", p.new_name),
            ));
        }
        let a = self.doc(&tp.text_document.uri)?;
        let Some(name) = features::global_at(a, tp.position) else {
            return Err((
                -32602,
                "only top-level names and enum values can be renamed".into(),
            ));
        };
        let changes = self.rename_set(&tp.text_document.uri, &name, &p.new_name)?;
        json(WorkspaceEdit {
            changes: Some(changes),
            ..Default::default()
        })
    }

    /// The whole document in the canonical layout, as one edit (none when
    /// it is already canonical or does not parse).
    fn formatting(&self, p: DocumentFormattingParams) -> Reply {
        let a = self.doc(&p.text_document.uri)?;
        let own = a.own();
        match crate::fmt::format(&own.text) {
            Ok(f) if f != own.text => json(vec![TextEdit {
                range: own.lines.range(&own.text, 0, own.text.len()),
                new_text: f,
            }]),
            Ok(_) => json(Vec::<TextEdit>::new()),
            // A file with syntax errors is left as it is.
            Err(_) => json(serde_json::Value::Null),
        }
    }

    /// Edits renaming `name` in a document, its bases and the open variants
    /// built on it.
    fn rename_set(
        &self,
        uri: &Uri,
        name: &str,
        new: &str,
    ) -> Result<HashMap<Uri, Vec<TextEdit>>, (i32, String)> {
        let mut set = vec![self.doc(uri)?];
        // Variants of this document or of its bases.
        let files: Vec<Uri> = self
            .doc(uri)?
            .files
            .iter()
            .filter_map(|f| f.uri.clone())
            .collect();
        for f in &files {
            for dep in self.dependents(f) {
                if let Some(d) = self.docs.get(&dep)
                    && !set.iter().any(|a| std::ptr::eq(*a, &d.analysis))
                {
                    set.push(&d.analysis);
                }
            }
        }
        Ok(features::rename_edits(&set, name, new))
    }
}

/// An answer to a request, or its JSON-RPC error code and message.
type Reply = Result<serde_json::Value, (i32, String)>;

/// A request's parameters, or an invalid-params error.
fn params<P: serde::de::DeserializeOwned>(req: Request) -> Result<P, (i32, String)> {
    serde_json::from_value(req.params).map_err(|e| (-32602, e.to_string()))
}

/// A result as JSON, or an internal error.
fn json<T: serde::Serialize>(v: T) -> Reply {
    serde_json::to_value(v).map_err(|e| (-32603, e.to_string()))
}
