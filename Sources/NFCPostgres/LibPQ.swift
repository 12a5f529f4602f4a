import CLibPQ
import NFCSystem

/// libpq's functions, taken from `libpq.so.5` the first time a lab store is used: the
/// one place NFCPostgres reaches libpq. Linking libpq made every command, `--version`
/// included, map and relocate its twenty-odd libraries at start-up (see bench/README.md);
/// loading it here keeps that cost in the commands that talk to PostgreSQL.
struct LibPQ: Sendable {
    let connectdbParams: nfcbench_PQconnectdbParams_f
    let status: nfcbench_PQstatus_f
    let errorMessage: nfcbench_PQerrorMessage_f
    let finish: nfcbench_PQfinish_f
    let clear: nfcbench_PQclear_f
    let user: nfcbench_PQuser_f
    let host: nfcbench_PQhost_f
    let port: nfcbench_PQport_f
    let db: nfcbench_PQdb_f
    let socket: nfcbench_PQsocket_f
    let setNoticeProcessor: nfcbench_PQsetNoticeProcessor_f
    let sendQueryParams: nfcbench_PQsendQueryParams_f
    let sendQuery: nfcbench_PQsendQuery_f
    let getResult: nfcbench_PQgetResult_f
    let isBusy: nfcbench_PQisBusy_f
    let consumeInput: nfcbench_PQconsumeInput_f
    let resultStatus: nfcbench_PQresultStatus_f
    let resultErrorMessage: nfcbench_PQresultErrorMessage_f
    let resultErrorField: nfcbench_PQresultErrorField_f
    let ntuples: nfcbench_PQntuples_f
    let nfields: nfcbench_PQnfields_f
    let fname: nfcbench_PQfname_f
    let getvalue: nfcbench_PQgetvalue_f
    let getisnull: nfcbench_PQgetisnull_f
    let cmdTuples: nfcbench_PQcmdTuples_f
    let conninfoParse: nfcbench_PQconninfoParse_f
    let conninfoFree: nfcbench_PQconninfoFree_f
    let freemem: nfcbench_PQfreemem_f

    /// The library, loaded once for the process; a machine without it gets an error that
    /// says which package to install, from the first lab-store command only.
    static let loaded: Result<LibPQ, PostgresError> = {
        do throws(SharedLibrary.LoadingError) {
            return .success(try LibPQ(SharedLibrary.load(anyOf: ["libpq.so.5", "libpq.5.dylib"])))
        } catch {
            return .failure(
                PostgresError(
                    kind: .connection, sqlState: nil,
                    message:
                        "libpq, PostgreSQL's client library, cannot be loaded (\(error)): install it (Debian: apt-get install libpq5)",
                    server: ""))
        }
    }()

    /// A C string libpq returns (through a function pointer, so not implicitly unwrapped)
    /// as text: libpq returns NULL only for a NULL connection or result, which none is.
    func text(_ pointer: UnsafeMutablePointer<CChar>?) -> String { pointer.map { String(cString: $0) } ?? "" }

    /// The loaded library, or the error that says how to install it.
    static func api() throws(PostgresError) -> LibPQ { try loaded.get() }

    private init(_ library: SharedLibrary) throws(SharedLibrary.LoadingError) {
        func take<F>(_ name: String, _: F.Type = F.self) throws(SharedLibrary.LoadingError) -> F {
            try library.function(name, as: F.self)
        }
        connectdbParams = try take("PQconnectdbParams")
        status = try take("PQstatus")
        errorMessage = try take("PQerrorMessage")
        finish = try take("PQfinish")
        clear = try take("PQclear")
        user = try take("PQuser")
        host = try take("PQhost")
        port = try take("PQport")
        db = try take("PQdb")
        socket = try take("PQsocket")
        setNoticeProcessor = try take("PQsetNoticeProcessor")
        sendQueryParams = try take("PQsendQueryParams")
        sendQuery = try take("PQsendQuery")
        getResult = try take("PQgetResult")
        isBusy = try take("PQisBusy")
        consumeInput = try take("PQconsumeInput")
        resultStatus = try take("PQresultStatus")
        resultErrorMessage = try take("PQresultErrorMessage")
        resultErrorField = try take("PQresultErrorField")
        ntuples = try take("PQntuples")
        nfields = try take("PQnfields")
        fname = try take("PQfname")
        getvalue = try take("PQgetvalue")
        getisnull = try take("PQgetisnull")
        cmdTuples = try take("PQcmdTuples")
        conninfoParse = try take("PQconninfoParse")
        conninfoFree = try take("PQconninfoFree")
        freemem = try take("PQfreemem")
    }
}
