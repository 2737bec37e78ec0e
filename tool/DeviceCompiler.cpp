#include "DeviceCompiler.h"

#include "CountingPipeline.h"
#include "CudaCompat.h"
#include "IncludeScanner.h"
#include "ParamFields.h"
#include "PhaseTimes.h"
#include "SourceFacts.h"

#include "roofcheck/Bindings.h"
#include "roofcheck/Error.h"
#include "roofcheck/Json.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Mangle.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/TemplateBase.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/DiagnosticIDs.h"
#include "clang/Basic/FileManager.h"
#include "clang/Basic/SourceManager.h"
#include "clang/CodeGen/CodeGenAction.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/MultiplexConsumer.h"
#include "clang/Options/Options.h"
#include "clang/Tooling/JSONCompilationDatabase.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Option/ArgList.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/Timer.h"
#include "llvm/Support/VirtualFileSystem.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <sstream>

#include <unistd.h>

namespace roofcheck::lint {

DeviceModule::DeviceModule() = default;
DeviceModule::DeviceModule(DeviceModule &&) = default;
DeviceModule::~DeviceModule() {
  module.reset(); // the module must go before its context
}

namespace {

/// A function definition of the main file: where its body is, and which side it belongs to.
struct FunctionBody {
  unsigned begin = 0, end = 0; ///< offsets of '{' and '}'
  bool kernel = false;
  bool hostOnly = false;
  std::string name;
};

struct CompileError {
  std::string text; ///< file:line:col: message
  bool syntax = false; ///< a parse error: the file is not valid CUDA C++, nothing is worked around
  bool inMainFile = false;
  unsigned offset = 0;
};

class ErrorCollector : public clang::DiagnosticConsumer {
public:
  void HandleDiagnostic(clang::DiagnosticsEngine::Level level, const clang::Diagnostic &info) override {
    clang::DiagnosticConsumer::HandleDiagnostic(level, info);
    if (level < clang::DiagnosticsEngine::Error)
      return;
    llvm::SmallString<256> message;
    info.FormatDiagnostic(message);
    CompileError error;
    error.text = message.str().str();
    error.syntax = clang::DiagnosticIDs::getCategoryNameFromID(clang::DiagnosticIDs::getCategoryNumberForDiag(
                       info.getID())) == llvm::StringRef("Parse Issue");
    if (info.hasSourceManager() && info.getLocation().isValid()) {
      const clang::SourceManager &sm = info.getSourceManager();
      clang::SourceLocation loc = sm.getExpansionLoc(info.getLocation());
      clang::PresumedLoc presumed = sm.getPresumedLoc(loc);
      if (presumed.isValid())
        error.text = std::string(presumed.getFilename()) + ":" + std::to_string(presumed.getLine()) + ":" +
                     std::to_string(presumed.getColumn()) + ": " + error.text;
      if (sm.isInMainFile(loc)) {
        error.inMainFile = true;
        error.offset = sm.getFileOffset(loc);
      }
    }
    errors.push_back(std::move(error));
  }
  std::vector<CompileError> errors;
};

struct CollectedSource {
  std::vector<KernelSource> kernels;
  std::vector<FunctionBody> bodies;
};

/// Clang's Itanium mangling marks a function of internal linkage by an `L` before its name (`_ZL5scalev`,
/// `_ZN4demoL5scaleEv`); nvcc's symbol for a `static __global__` function has none (CUTLASS declares every
/// kernel `__global__ static`), and launches are recorded by nvcc's symbol. The names before the kernel's are
/// its namespaces' (kernels are no class members), so the marker's place is known.
std::string withoutInternalLinkageMarker(const clang::FunctionDecl &kernel, const std::string &mangled) {
  std::vector<const clang::NamespaceDecl *> namespaces;
  for (const clang::DeclContext *context = kernel.getDeclContext(); context; context = context->getParent())
    if (const auto *space = llvm::dyn_cast<clang::NamespaceDecl>(context))
      namespaces.insert(namespaces.begin(), space);
  std::string prefix = namespaces.empty() ? "_Z" : "_ZN";
  for (const clang::NamespaceDecl *space : namespaces) {
    if (space->isAnonymousNamespace())
      return mangled; // internal by its namespace, with no marker
    std::string name = space->getName().str();
    prefix += name == "std" && space->getParent()->isTranslationUnit() ? "St" : std::to_string(name.size()) + name;
  }
  std::string name = kernel.getName().str();
  std::string marked = prefix + "L" + std::to_string(name.size()) + name;
  if (mangled.compare(0, marked.size(), marked) != 0)
    return mangled;
  return prefix + mangled.substr(prefix.size() + 1);
}

class KernelCollector : public clang::ASTConsumer, public clang::RecursiveASTVisitor<KernelCollector> {
public:
  explicit KernelCollector(CollectedSource &sink) : sink_(sink) {}

  bool shouldVisitTemplateInstantiations() const { return true; }

  void HandleTranslationUnit(clang::ASTContext &context) override {
    context_ = &context;
    mangler_.reset(context.createMangleContext());
    TraverseDecl(context.getTranslationUnitDecl());
  }

  bool VisitFunctionDecl(clang::FunctionDecl *fd) {
    const clang::SourceManager &sm = context_->getSourceManager();
    if (fd->doesThisDeclarationHaveABody() && fd->getBody() && !fd->isImplicit() &&
        fd->getTemplateSpecializationKind() != clang::TSK_ImplicitInstantiation) {
      clang::SourceRange range = fd->getBody()->getSourceRange();
      clang::SourceLocation begin = sm.getExpansionLoc(range.getBegin());
      clang::SourceLocation end = sm.getExpansionLoc(range.getEnd());
      if (sm.isInMainFile(begin) && sm.isInMainFile(end) && !fd->getParent()->isFunctionOrMethod()) {
        FunctionBody body;
        body.begin = sm.getFileOffset(begin);
        body.end = sm.getFileOffset(end);
        body.kernel = fd->hasAttr<clang::CUDAGlobalAttr>();
        body.hostOnly = !body.kernel && !fd->hasAttr<clang::CUDADeviceAttr>();
        body.name = fd->getNameAsString();
        sink_.bodies.push_back(body);
      }
    }
    if (!fd->hasAttr<clang::CUDAGlobalAttr>() || !fd->isThisDeclarationADefinition() || fd->isDependentContext())
      return true;
    KernelSource kernel;
    // A library's kernels (CUB's, Thrust's) are instantiated by the file's host code: their launches are
    // the program's too, so they are estimated; the rules leave them alone.
    kernel.library = sm.isInSystemHeader(sm.getExpansionLoc(fd->getLocation()));
    kernel.name = fd->getNameAsString();
    clang::PrintingPolicy policy(context_->getLangOpts());
    policy.SuppressTagKeyword = true;
    if (const clang::TemplateArgumentList *args = fd->getTemplateSpecializationArgs()) {
      std::string text;
      llvm::raw_string_ostream os(text);
      clang::printTemplateArgumentList(os, args->asArray(), policy);
      kernel.name += os.str();
    }
    std::string mangled;
    llvm::raw_string_ostream ms(mangled);
    if (mangler_->shouldMangleDeclName(fd))
      mangler_->mangleName(clang::GlobalDecl(fd), ms);
    else
      ms << fd->getName();
    kernel.mangled = ms.str();
    kernel.symbol = withoutInternalLinkageMarker(*fd, kernel.mangled);
    clang::PresumedLoc presumed = sm.getPresumedLoc(sm.getExpansionLoc(fd->getLocation()));
    if (presumed.isValid()) {
      kernel.file = presumed.getFilename();
      kernel.line = static_cast<int>(presumed.getLine());
      kernel.column = static_cast<int>(presumed.getColumn());
    }
    for (unsigned i = 0; i < fd->getNumParams(); ++i) {
      const clang::ParmVarDecl *param = fd->getParamDecl(i);
      KernelParam p;
      p.index = static_cast<int>(i);
      p.name = param->getNameAsString();
      p.type = param->getType().getAsString(policy);
      // An enum or a typedef the join cannot read as a number (`GluOp op`, `index_t n`): the integer or
      // floating type it stands for.
      clang::QualType canonical = param->getType().getCanonicalType();
      if (const auto *enumType = canonical->getAs<clang::EnumType>())
        canonical = enumType->getDecl()->getIntegerType().getCanonicalType();
      if (scalarKind(p.type) == ScalarKind::NotScalar && (canonical->isIntegerType() || canonical->isRealFloatingType()))
        p.type = canonical.getUnqualifiedType().getAsString(policy);
      p.size = param->getType()->isIncompleteType() ? 0 : context_->getTypeSizeInChars(param->getType()).getQuantity();
      p.fields = scalarFields(*context_, *param);
      kernel.params.push_back(p);
    }
    if (!kernel.library)
      collectSourceFacts(*context_, fd, kernel);
    sink_.kernels.push_back(std::move(kernel));
    return true;
  }

private:
  CollectedSource &sink_;
  clang::ASTContext *context_ = nullptr;
  std::unique_ptr<clang::MangleContext> mangler_;
};

/// Clang's EmitLLVMOnlyAction (device IR after clang's optimisation pipeline) plus the kernel collector.
class DeviceAction : public clang::EmitLLVMOnlyAction {
public:
  DeviceAction(llvm::LLVMContext &context, CollectedSource &collected, std::unique_ptr<llvm::Module> &module)
      : clang::EmitLLVMOnlyAction(&context), collected_(collected), module_(module) {}

protected:
  // clang's code generation times itself under -ftime-report with the frontend timer that its own driver
  // (cc1) makes and a tool invocation does not: without one, a user's -ftime-report would crash the tool.
  bool BeginInvocation(clang::CompilerInstance &ci) override {
    if (ci.getCodeGenOpts().TimePasses) {
      ci.createFrontendTimer();
      ci.getFrontendTimer().startTimer();
    }
    return clang::EmitLLVMOnlyAction::BeginInvocation(ci);
  }
  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance &ci, llvm::StringRef file) override {
    std::vector<std::unique_ptr<clang::ASTConsumer>> consumers;
    // The collector reads the AST before code generation takes the translation unit over.
    consumers.push_back(std::make_unique<KernelCollector>(collected_));
    consumers.push_back(clang::EmitLLVMOnlyAction::CreateASTConsumer(ci, file));
    return std::make_unique<clang::MultiplexConsumer>(std::move(consumers));
  }
  void EndSourceFileAction() override {
    clang::EmitLLVMOnlyAction::EndSourceFileAction();
    module_ = takeModule();
  }

private:
  CollectedSource &collected_;
  std::unique_ptr<llvm::Module> &module_;
};

struct Attempt {
  bool ok = false;
  CollectedSource collected;
  std::vector<CompileError> errors;
};

Attempt compileOnce(const std::vector<std::string> &commandLine, const std::string &sourceFile,
                    const std::string *replacedSource, llvm::LLVMContext &context, std::unique_ptr<llvm::Module> &module) {
  auto memory = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  memory->addFile(CudaCompatHeaderPath, 0, llvm::MemoryBuffer::getMemBufferCopy(CudaCompatHeader));
  if (replacedSource) {
    llvm::SmallString<256> absolute(sourceFile);
    llvm::sys::fs::make_absolute(absolute);
    memory->addFile(absolute, 0, llvm::MemoryBuffer::getMemBufferCopy(*replacedSource));
  }
  // A physical file system of its own: a -working-directory in the command moves its working directory, not
  // the process's (the shared real one would chdir).
  auto overlay = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(llvm::vfs::createPhysicalFileSystem());
  overlay->pushOverlay(memory);
  auto files = llvm::makeIntrusiveRefCnt<clang::FileManager>(clang::FileSystemOptions(), overlay);

  std::vector<std::string> line = commandLine;
  line.insert(line.end() - 1, {"-include", CudaCompatHeaderPath});
  Attempt attempt;
  ErrorCollector diagnostics;
  clang::tooling::ToolInvocation invocation(line, std::make_unique<DeviceAction>(context, attempt.collected, module),
                                            files.get(), std::make_shared<clang::PCHContainerOperations>());
  invocation.setDiagnosticConsumer(&diagnostics);
  bool timed = reportsTimes(commandLine);
  {
    PhaseTimer timer("clang", "clang: parse, IR generation, freeing the AST", timed);
    attempt.ok = invocation.run() && diagnostics.errors.empty() && module;
  }
  if (attempt.ok) {
    PhaseTimer timer("simplification", "simplification pipeline (inlining, SROA, instcombine, loop forms)", timed);
    simplifyForCounting(*module);
  }
  attempt.errors = std::move(diagnostics.errors);
  return attempt;
}

/// The command line without the arguments clang's driver does not know (a GCC-only flag that nvcc's
/// -forward-unknown-to-host-compiler hands on, an nvcc flag newer than the translator): one such flag would
/// otherwise stop the whole file. Each dropped argument is noted in `notes`.
std::vector<std::string> knownArgumentsOnly(const std::vector<std::string> &commandLine, const std::string &sourceFile,
                                            std::vector<std::string> &notes) {
  std::vector<const char *> argv;
  for (size_t i = 1; i < commandLine.size(); ++i)
    argv.push_back(commandLine[i].c_str());
  unsigned missingIndex = 0, missingCount = 0;
  llvm::opt::InputArgList args = clang::getDriverOptTable().ParseArgs(
      argv, missingIndex, missingCount, llvm::opt::Visibility(clang::options::ClangOption));
  std::set<unsigned> unknown;
  for (const llvm::opt::Arg *arg : args.filtered(clang::options::OPT_UNKNOWN)) {
    unknown.insert(arg->getIndex());
    notes.push_back(sourceFile + ": dropped '" + std::string(arg->getSpelling()) +
                    "' from the compile command: clang does not know it");
  }
  std::vector<std::string> line = {commandLine.front()};
  for (size_t i = 1; i < commandLine.size(); ++i)
    if (!unknown.count(static_cast<unsigned>(i - 1)))
      line.push_back(commandLine[i]);
  return line;
}

/// Where a NUL byte sits in the first 64 KiB of the file: source text has none, an object file or an
/// image does, and clang would report a screen of meaningless syntax errors for it.
std::optional<size_t> nulByteOffset(const std::string &sourceFile) {
  std::ifstream in(sourceFile, std::ios::binary);
  std::string head(65536, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<size_t>(in.gcount()));
  size_t at = head.find('\0');
  return at == std::string::npos ? std::nullopt : std::optional<size_t>(at);
}

std::string firstErrors(const std::vector<CompileError> &errors) {
  if (errors.empty())
    return "clang could not run the compilation";
  std::string text = errors.front().text;
  if (errors.size() > 1)
    text += " (and " + std::to_string(errors.size() - 1) + " more error" + (errors.size() > 2 ? "s" : "") + ")";
  return text;
}

/// BUILD_DIR/compile_commands.json, checked to be JSON before clang reads it: clang's YAML reader prints
/// its own diagnostics for a file cut short, and its message runs over several lines.
std::unique_ptr<clang::tooling::CompilationDatabase> loadDatabase(const std::string &buildDir) {
  std::string path = buildDir + "/compile_commands.json";
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw Error("cannot read the compilation database in " + buildDir +
                ": no compile_commands.json (CMake writes it with -DCMAKE_EXPORT_COMPILE_COMMANDS=ON)");
  std::stringstream text;
  text << in.rdbuf();
  Json parsed = Json::parse(text.str(), nullptr, /*allow_exceptions=*/false);
  if (parsed.is_discarded() || !parsed.is_array())
    throw Error("cannot read the compilation database in " + buildDir +
                ": compile_commands.json is not a JSON array of compile commands");
  std::string message;
  std::unique_ptr<clang::tooling::CompilationDatabase> database = clang::tooling::JSONCompilationDatabase::loadFromFile(
      path, message, clang::tooling::JSONCommandLineSyntax::AutoDetect);
  if (!database)
    throw Error("cannot read the compilation database in " + buildDir + ": " + message);
  return database;
}

} // namespace

std::vector<std::string> compileCommandFromDatabase(const std::string &buildDir, const std::string &sourceFile) {
  std::unique_ptr<clang::tooling::CompilationDatabase> database = loadDatabase(buildDir);
  llvm::SmallString<256> absolute(sourceFile);
  llvm::sys::fs::make_absolute(absolute);
  llvm::sys::path::remove_dots(absolute, true);
  std::vector<clang::tooling::CompileCommand> commands = database->getCompileCommands(absolute);
  // An entry inferred from a neighbouring file (Heuristic set) is not the file's own command.
  if (!commands.empty() && !commands.front().Heuristic.empty())
    commands.clear();
  if (commands.empty())
    return {};
  // The command runs in the entry's directory: the source it names there becomes the absolute path, and
  // clang resolves the other relative paths (-I, options files) from that directory too.
  const clang::tooling::CompileCommand &entry = commands.front();
  std::vector<std::string> line = entry.CommandLine;
  for (size_t i = 1; i < line.size(); ++i) {
    if (line[i].empty() || line[i][0] == '-' || !llvm::sys::path::is_relative(line[i]))
      continue;
    llvm::SmallString<256> resolved(entry.Directory);
    llvm::sys::path::append(resolved, line[i]);
    llvm::sys::path::remove_dots(resolved, true);
    if (resolved == absolute)
      line[i] = absolute.str().str();
  }
  if (!entry.Directory.empty()) {
    line = withAbsoluteIncludeDirectories(std::move(line), entry.Directory);
    line.insert(line.begin() + 1, "-working-directory=" + entry.Directory);
  }
  return line;
}

std::vector<std::string> cudaSourcesInDatabase(const std::string &buildDir) {
  std::unique_ptr<clang::tooling::CompilationDatabase> database = loadDatabase(buildDir);
  std::vector<std::string> sources;
  for (const std::string &file : database->getAllFiles())
    if (llvm::sys::path::extension(file) == ".cu")
      sources.push_back(file);
  if (sources.empty())
    throw Error("no CUDA file (*.cu) in " + buildDir + "/compile_commands.json");
  return sources;
}

std::map<std::string, std::vector<std::string>> cudaSourcesIncluding(const std::string &buildDir,
                                                                     const std::vector<std::string> &headers,
                                                                     std::set<std::string> &unreadable) {
  std::map<std::string, std::vector<std::string>> including;
  std::map<std::string, std::vector<std::string>> wanted; // normalised absolute path -> the headers as given
  for (const std::string &header : headers) {
    including[header]; // an entry for every header, empty where no source includes it
    llvm::SmallString<256> absolute(header);
    llvm::sys::fs::make_absolute(absolute);
    llvm::sys::path::remove_dots(absolute, true);
    wanted[absolute.str().str()].push_back(header);
  }
  if (headers.empty())
    return including;
  std::unique_ptr<clang::tooling::CompilationDatabase> database = loadDatabase(buildDir);
  std::set<std::string> scanned;
  for (const clang::tooling::CompileCommand &entry : database->getAllCompileCommands()) {
    llvm::SmallString<256> source(entry.Directory);
    llvm::sys::path::append(source, entry.Filename);
    llvm::sys::path::remove_dots(source, true);
    if (llvm::sys::path::extension(source) != ".cu" || !scanned.insert(source.str().str()).second)
      continue;
    for (const std::string &file :
         includedFiles(source.str().str(), includeDirectories(entry.CommandLine, entry.Directory), unreadable))
      if (auto it = wanted.find(file); it != wanted.end())
        for (const std::string &header : it->second)
          including[header].push_back(source.str().str());
  }
  return including;
}

std::vector<std::string> hostCompilerIncludeDirectories(const std::string &compiler, std::string &whyNone) {
  whyNone.clear();
  llvm::ErrorOr<std::string> program = llvm::sys::findProgramByName(compiler);
  if (!program) {
    whyNone = "not found on PATH";
    return {};
  }
  llvm::SmallString<256> output;
  if (std::error_code ec = llvm::sys::fs::createTemporaryFile("roofcheck-host-include", "txt", output)) {
    whyNone = "cannot create a temporary file: " + ec.message();
    return {};
  }
  llvm::FileRemover removeOutput(output);
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, llvm::StringRef(output), llvm::StringRef("")};
  std::string failure;
  int status = llvm::sys::ExecuteAndWait(*program, {*program, "-print-file-name=include"}, std::nullopt, redirects,
                                         10, 0, &failure);
  if (status != 0) {
    whyNone = "'" + *program + " -print-file-name=include' " +
              (failure.empty() ? "exited with " + std::to_string(status) : "failed: " + failure);
    return {};
  }
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> text = llvm::MemoryBuffer::getFile(output);
  if (!text) {
    whyNone = "cannot read its answer: " + text.getError().message();
    return {};
  }
  std::string dir = (*text)->getBuffer().trim().str();
  // gcc answers the bare name when it has no such folder.
  if (dir.empty() || !llvm::sys::path::is_absolute(dir) || !llvm::sys::fs::is_directory(dir)) {
    whyNone = "'" + *program + " -print-file-name=include' names no folder ('" + dir + "')";
    return {};
  }
  return {dir};
}

DeviceModule compileDevice(const std::vector<std::string> &commandLine, const std::string &sourceFile) {
  static std::once_flag targetsReady;
  std::call_once(targetsReady, [] {
    llvm::InitializeAllTargetInfos();
    llvm::InitializeAllTargets();
    llvm::InitializeAllTargetMCs();
    // LLVM's own allocations abort with "LLVM ERROR: out of memory" when they fail; the tool's convention
    // is one error line and exit 2. (LLVM is built without exceptions: no throwing through it.)
    llvm::install_bad_alloc_error_handler([](void *, const char *, bool) {
      static const char message[] = "roofcheck-lint: error: out of memory\n";
      [[maybe_unused]] ssize_t written = ::write(2, message, sizeof message - 1);
      ::_exit(2);
    });
  });

  if (std::optional<size_t> nul = nulByteOffset(sourceFile))
    throw Error("cannot compile the device side of " + sourceFile + ": not a source file (a NUL byte at offset " +
                std::to_string(*nul) + ")");
  DeviceModule result;
  const std::vector<std::string> line = knownArgumentsOnly(commandLine, sourceFile, result.recoveredErrors);
  result.context = std::make_unique<llvm::LLVMContext>();
  Attempt attempt = compileOnce(line, sourceFile, nullptr, *result.context, result.module);
  if (attempt.ok) {
    result.kernels = std::move(attempt.collected.kernels);
    return result;
  }

  // Blank the bodies that hold the errors, when each error sits in a host-only function or a kernel of the
  // main file; anything else (a header, a __device__ helper, a declaration) cannot be worked around.
  std::ifstream in(sourceFile, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  std::string text = buffer.str();
  std::map<std::string, std::string> kernelErrors; // kernel name -> first error in its body
  std::vector<const FunctionBody *> blanked;
  for (const CompileError &error : attempt.errors) {
    const FunctionBody *innermost = nullptr;
    if (error.inMainFile)
      for (const FunctionBody &body : attempt.collected.bodies)
        if (body.begin <= error.offset && error.offset <= body.end &&
            (!innermost || body.end - body.begin < innermost->end - innermost->begin))
          innermost = &body;
    if (error.syntax || !innermost || !(innermost->kernel || innermost->hostOnly))
      throw Error("cannot compile the device side of " + sourceFile + ": " + firstErrors(attempt.errors));
    if (innermost->kernel)
      kernelErrors.emplace(innermost->name, error.text);
    else
      result.recoveredErrors.push_back(error.text);
    blanked.push_back(innermost);
  }
  for (const FunctionBody *body : blanked)
    for (unsigned i = body->begin + 1; i < body->end && i < text.size(); ++i)
      if (text[i] != '\n')
        text[i] = ' ';

  result.module.reset();
  result.context = std::make_unique<llvm::LLVMContext>();
  Attempt retry = compileOnce(line, sourceFile, &text, *result.context, result.module);
  if (!retry.ok)
    throw Error("cannot compile the device side of " + sourceFile + ": " + firstErrors(attempt.errors));
  result.kernels = std::move(retry.collected.kernels);
  bool anyAnalysed = false;
  for (KernelSource &kernel : result.kernels) {
    std::string base = kernel.name.substr(0, kernel.name.find('<'));
    auto found = kernelErrors.find(base);
    if (found != kernelErrors.end())
      kernel.notAnalysed = found->second;
    anyAnalysed = anyAnalysed || kernel.notAnalysed.empty();
  }
  if (!anyAnalysed && !result.kernels.empty())
    throw Error("cannot compile the device side of " + sourceFile + ": " + firstErrors(attempt.errors));
  return result;
}

} // namespace roofcheck::lint
