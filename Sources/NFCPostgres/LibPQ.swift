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
        connectdbParams = try library.function("PQconnectdbParams")
        status = try library.function("PQstatus")
        errorMessage = try library.function("PQerrorMessage")
        finish = try library.function("PQfinish")
        clear = try library.function("PQclear")
        user = try library.function("PQuser")
        host = try library.function("PQhost")
        port = try library.function("PQport")
        db = try library.function("PQdb")
        socket = try library.function("PQsocket")
        setNoticeProcessor = try library.function("PQsetNoticeProcessor")
        sendQueryParams = try library.function("PQsendQueryParams")
        sendQuery = try library.function("PQsendQuery")
        getResult = try library.function("PQgetResult")
        isBusy = try library.function("PQisBusy")
        consumeInput = try library.function("PQconsumeInput")
        resultStatus = try library.function("PQresultStatus")
        resultErrorMessage = try library.function("PQresultErrorMessage")
        resultErrorField = try library.function("PQresultErrorField")
        ntuples = try library.function("PQntuples")
        nfields = try library.function("PQnfields")
        fname = try library.function("PQfname")
        getvalue = try library.function("PQgetvalue")
        getisnull = try library.function("PQgetisnull")
        cmdTuples = try library.function("PQcmdTuples")
        conninfoParse = try library.function("PQconninfoParse")
        conninfoFree = try library.function("PQconninfoFree")
        freemem = try library.function("PQfreemem")
    }
}
